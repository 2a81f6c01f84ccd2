-- MediaRepository: statement snapshots (test/database/sql-snapshots.spec.ts; UPDATE_SQL_SNAPSHOTS=1 rewrites)

-- MediaRepository.exists
SELECT 1 AS "row_exists" FROM (SELECT 1 AS dummy_column) "dummy_table" WHERE EXISTS (SELECT 1 FROM "media" "Media" WHERE (("Media"."id" = $1))) LIMIT 1;

-- MediaRepository.find
SELECT "Media"."id" AS "Media_id", "Media"."storage" AS "Media_storage", "Media"."path" AS "Media_path", "Media"."mime_type" AS "Media_mime_type", "Media"."size_bytes" AS "Media_size_bytes", "Media"."sha256" AS "Media_sha256", "Media"."original_name" AS "Media_original_name", "Media"."uploader_ip" AS "Media_uploader_ip", "Media"."created_at" AS "Media_created_at" FROM "media" "Media" WHERE (("Media"."id" = $1)) LIMIT 1;

-- MediaRepository.insert
INSERT INTO "media"("id", "storage", "path", "mime_type", "size_bytes", "sha256", "original_name", "uploader_ip", "created_at") VALUES ($1, $2, $3, $4, $5, $6, $7, $8, DEFAULT) RETURNING "id", "storage", "created_at";
