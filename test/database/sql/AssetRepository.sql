-- AssetRepository: statement snapshots (test/database/sql-snapshots.spec.ts; UPDATE_SQL_SNAPSHOTS=1 rewrites)

-- AssetRepository.atLot
SELECT 1 AS "row_exists" FROM (SELECT 1 AS dummy_column) "dummy_table" WHERE EXISTS (SELECT 1 FROM "assets" "Asset" WHERE ( (((("Asset"."home_lot_id" = $1))) OR ((("Asset"."location_type" = $2) AND ("Asset"."location_id" = $3)))) ) AND ( "Asset"."deleted_at" IS NULL )) LIMIT 1;

-- AssetRepository.atStation
SELECT 1 AS "row_exists" FROM (SELECT 1 AS dummy_column) "dummy_table" WHERE EXISTS (SELECT 1 FROM "assets" "Asset" WHERE ( (("Asset"."location_type" = $1) AND ("Asset"."location_id" = $2)) ) AND ( "Asset"."deleted_at" IS NULL )) LIMIT 1;

-- AssetRepository.countsByCompany
SELECT company_id, count(*)::int AS n FROM assets WHERE company_id = ANY($1) AND deleted_at IS NULL GROUP BY company_id;

-- AssetRepository.insertHistory
INSERT INTO "asset_history"("id", "company_id", "asset_id", "from_status", "to_status", "location_type", "location_id", "lat", "lng", "job_id", "created_at") VALUES (DEFAULT, $1, $2, $3, $4, $5, $6, $7, $8, $9, DEFAULT) RETURNING "id", "created_at";

-- AssetRepository.lockMany
SELECT "Asset"."id" AS "Asset_id", "Asset"."created_at" AS "Asset_created_at", "Asset"."updated_at" AS "Asset_updated_at", "Asset"."company_id" AS "Asset_company_id", "Asset"."deleted_at" AS "Asset_deleted_at", "Asset"."code" AS "Asset_code", "Asset"."serial" AS "Asset_serial", "Asset"."asset_specification_id" AS "Asset_asset_specification_id", "Asset"."home_lot_id" AS "Asset_home_lot_id", "Asset"."condition" AS "Asset_condition", "Asset"."status" AS "Asset_status", "Asset"."notes" AS "Asset_notes", "Asset"."lat" AS "Asset_lat", "Asset"."lng" AS "Asset_lng", "Asset"."location_type" AS "Asset_location_type", "Asset"."location_id" AS "Asset_location_id", "Asset"."location_updated_at" AS "Asset_location_updated_at" FROM "assets" "Asset" WHERE ( (("Asset"."id" IN ($1, $2)) AND ("Asset"."company_id" = $3)) ) AND ( "Asset"."deleted_at" IS NULL ) FOR UPDATE;

-- AssetRepository.recordEvents: skipped (common's outbox insert (recordEvents), snapshotted with common)

-- AssetRepository.releaseReserved
UPDATE "assets" SET "status" = $1, "updated_at" = CURRENT_TIMESTAMP WHERE ("id" IN ($2, $3) AND "status" = $4);

-- AssetRepository.reserve
UPDATE assets SET status = 'reserved', updated_at = now() WHERE id = $1 AND company_id = $2 AND asset_specification_id = $3 AND status = 'available' AND deleted_at IS NULL RETURNING id, 'available' AS status;

-- AssetRepository.summaries
SELECT "Asset"."id" AS "Asset_id", "Asset"."code" AS "Asset_code", "Asset"."status" AS "Asset_status" FROM "assets" "Asset" WHERE (("Asset"."company_id" = $1) AND ("Asset"."id" IN ($2, $3)));

-- AssetRepository.update
UPDATE "assets" SET "status" = $1, "updated_at" = CURRENT_TIMESTAMP WHERE "id" = $2;
