-- QrCodeRepository: statement snapshots (test/database/sql-snapshots.spec.ts; UPDATE_SQL_SNAPSHOTS=1 rewrites)

-- QrCodeRepository.assetIdOf
SELECT "QrCode"."id" AS "QrCode_id", "QrCode"."asset_id" AS "QrCode_asset_id" FROM "qr_codes" "QrCode" WHERE (("QrCode"."id" = $1) AND ("QrCode"."company_id" = $2)) LIMIT 1;

-- QrCodeRepository.find
SELECT "QrCode"."id" AS "QrCode_id", "QrCode"."created_at" AS "QrCode_created_at", "QrCode"."updated_at" AS "QrCode_updated_at", "QrCode"."company_id" AS "QrCode_company_id", "QrCode"."asset_id" AS "QrCode_asset_id", "QrCode"."created_by" AS "QrCode_created_by" FROM "qr_codes" "QrCode" WHERE (("QrCode"."company_id" = $1) AND ("QrCode"."id" = $2)) LIMIT 1;

-- QrCodeRepository.insert
INSERT INTO "qr_codes"("id", "created_at", "updated_at", "company_id", "asset_id", "created_by") VALUES (DEFAULT, DEFAULT, DEFAULT, $1, $2, $3) RETURNING "id", "created_at", "updated_at";
