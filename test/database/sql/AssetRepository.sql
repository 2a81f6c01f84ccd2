-- AssetRepository: statement snapshots (test/database/sql-snapshots.spec.ts; UPDATE_SQL_SNAPSHOTS=1 rewrites)

-- AssetRepository.atLot
SELECT 1 AS "row_exists" FROM (SELECT 1 AS dummy_column) "dummy_table" WHERE EXISTS (SELECT 1 FROM "assets" "Asset" WHERE ( (((("Asset"."home_lot_id" = $1))) OR ((("Asset"."location_type" = $2) AND ("Asset"."location_id" = $3)))) ) AND ( "Asset"."deleted_at" IS NULL )) LIMIT 1;

-- AssetRepository.atStation
SELECT 1 AS "row_exists" FROM (SELECT 1 AS dummy_column) "dummy_table" WHERE EXISTS (SELECT 1 FROM "assets" "Asset" WHERE ( (("Asset"."location_type" = $1) AND ("Asset"."location_id" = $2)) ) AND ( "Asset"."deleted_at" IS NULL )) LIMIT 1;

-- AssetRepository.companyOf
SELECT "r"."company_id" AS "company_id" FROM "assets" "r" WHERE ( "r"."id" = $1 ) AND ( "r"."deleted_at" IS NULL );

-- AssetRepository.countLive
SELECT COUNT(1) AS "cnt" FROM "assets" "Asset" WHERE ( (("Asset"."company_id" = $1)) ) AND ( "Asset"."deleted_at" IS NULL );

-- AssetRepository.countsByCompany
SELECT company_id, count(*)::int AS n FROM assets WHERE company_id = ANY($1) AND deleted_at IS NULL GROUP BY company_id;

-- AssetRepository.create
SELECT 1 FROM assets WHERE company_id = $1 AND lower(code) = lower($2) AND deleted_at IS NULL AND id IS DISTINCT FROM $3 LIMIT 1;
INSERT INTO "assets"("id", "created_at", "updated_at", "company_id", "deleted_at", "code", "serial", "asset_specification_id", "home_lot_id", "condition", "status", "notes", "lat", "lng", "location_type", "location_id", "location_updated_at") VALUES (DEFAULT, DEFAULT, DEFAULT, $1, DEFAULT, $2, DEFAULT, $3, DEFAULT, DEFAULT, $4, DEFAULT, DEFAULT, DEFAULT, DEFAULT, DEFAULT, DEFAULT) RETURNING "id", "created_at", "updated_at", "deleted_at", "condition", "status";

-- AssetRepository.find (read)
SELECT "Asset"."id" AS "Asset_id", "Asset"."created_at" AS "Asset_created_at", "Asset"."updated_at" AS "Asset_updated_at", "Asset"."company_id" AS "Asset_company_id", "Asset"."deleted_at" AS "Asset_deleted_at", "Asset"."code" AS "Asset_code", "Asset"."serial" AS "Asset_serial", "Asset"."asset_specification_id" AS "Asset_asset_specification_id", "Asset"."home_lot_id" AS "Asset_home_lot_id", "Asset"."condition" AS "Asset_condition", "Asset"."status" AS "Asset_status", "Asset"."notes" AS "Asset_notes", "Asset"."lat" AS "Asset_lat", "Asset"."lng" AS "Asset_lng", "Asset"."location_type" AS "Asset_location_type", "Asset"."location_id" AS "Asset_location_id", "Asset"."location_updated_at" AS "Asset_location_updated_at" FROM "assets" "Asset" WHERE ( (("Asset"."company_id" = $1) AND ("Asset"."id" = $2)) ) AND ( "Asset"."deleted_at" IS NULL ) LIMIT 1;

-- AssetRepository.find (locked)
SELECT "Asset"."id" AS "Asset_id", "Asset"."created_at" AS "Asset_created_at", "Asset"."updated_at" AS "Asset_updated_at", "Asset"."company_id" AS "Asset_company_id", "Asset"."deleted_at" AS "Asset_deleted_at", "Asset"."code" AS "Asset_code", "Asset"."serial" AS "Asset_serial", "Asset"."asset_specification_id" AS "Asset_asset_specification_id", "Asset"."home_lot_id" AS "Asset_home_lot_id", "Asset"."condition" AS "Asset_condition", "Asset"."status" AS "Asset_status", "Asset"."notes" AS "Asset_notes", "Asset"."lat" AS "Asset_lat", "Asset"."lng" AS "Asset_lng", "Asset"."location_type" AS "Asset_location_type", "Asset"."location_id" AS "Asset_location_id", "Asset"."location_updated_at" AS "Asset_location_updated_at" FROM "assets" "Asset" WHERE ( (("Asset"."company_id" = $1) AND ("Asset"."id" = $2)) ) AND ( "Asset"."deleted_at" IS NULL ) LIMIT 1 FOR UPDATE;

-- AssetRepository.history
SELECT "AssetHistory"."id" AS "AssetHistory_id", "AssetHistory"."company_id" AS "AssetHistory_company_id", "AssetHistory"."asset_id" AS "AssetHistory_asset_id", "AssetHistory"."from_status" AS "AssetHistory_from_status", "AssetHistory"."to_status" AS "AssetHistory_to_status", "AssetHistory"."location_type" AS "AssetHistory_location_type", "AssetHistory"."location_id" AS "AssetHistory_location_id", "AssetHistory"."lat" AS "AssetHistory_lat", "AssetHistory"."lng" AS "AssetHistory_lng", "AssetHistory"."job_id" AS "AssetHistory_job_id", "AssetHistory"."created_at" AS "AssetHistory_created_at" FROM "asset_history" "AssetHistory" WHERE (("AssetHistory"."company_id" = $1) AND ("AssetHistory"."asset_id" = $2)) ORDER BY "AssetHistory"."created_at" ASC;

-- AssetRepository.insertHistory
INSERT INTO "asset_history"("id", "company_id", "asset_id", "from_status", "to_status", "location_type", "location_id", "lat", "lng", "job_id", "created_at") VALUES (DEFAULT, $1, $2, $3, $4, $5, $6, $7, $8, $9, DEFAULT) RETURNING "id", "created_at";

-- AssetRepository.lockMany
SELECT "Asset"."id" AS "Asset_id", "Asset"."created_at" AS "Asset_created_at", "Asset"."updated_at" AS "Asset_updated_at", "Asset"."company_id" AS "Asset_company_id", "Asset"."deleted_at" AS "Asset_deleted_at", "Asset"."code" AS "Asset_code", "Asset"."serial" AS "Asset_serial", "Asset"."asset_specification_id" AS "Asset_asset_specification_id", "Asset"."home_lot_id" AS "Asset_home_lot_id", "Asset"."condition" AS "Asset_condition", "Asset"."status" AS "Asset_status", "Asset"."notes" AS "Asset_notes", "Asset"."lat" AS "Asset_lat", "Asset"."lng" AS "Asset_lng", "Asset"."location_type" AS "Asset_location_type", "Asset"."location_id" AS "Asset_location_id", "Asset"."location_updated_at" AS "Asset_location_updated_at" FROM "assets" "Asset" WHERE ( (("Asset"."id" IN ($1, $2)) AND ("Asset"."company_id" = $3)) ) AND ( "Asset"."deleted_at" IS NULL ) FOR UPDATE;

-- AssetRepository.ofSpecification
SELECT "e"."id" AS "e_id", "e"."created_at" AS "e_created_at", "e"."updated_at" AS "e_updated_at", "e"."company_id" AS "e_company_id", "e"."deleted_at" AS "e_deleted_at", "e"."code" AS "e_code", "e"."serial" AS "e_serial", "e"."asset_specification_id" AS "e_asset_specification_id", "e"."home_lot_id" AS "e_home_lot_id", "e"."condition" AS "e_condition", "e"."status" AS "e_status", "e"."notes" AS "e_notes", "e"."lat" AS "e_lat", "e"."lng" AS "e_lng", "e"."location_type" AS "e_location_type", "e"."location_id" AS "e_location_id", "e"."location_updated_at" AS "e_location_updated_at" FROM "assets" "e" WHERE ( "e"."company_id" = $1 AND "e"."asset_specification_id" = $2 ) AND ( "e"."deleted_at" IS NULL ) ORDER BY "e"."code" ASC, "e"."id" ASC;

-- AssetRepository.page (no filter)
SELECT "e"."id" AS "e_id", "e"."created_at" AS "e_created_at", "e"."updated_at" AS "e_updated_at", "e"."company_id" AS "e_company_id", "e"."deleted_at" AS "e_deleted_at", "e"."code" AS "e_code", "e"."serial" AS "e_serial", "e"."asset_specification_id" AS "e_asset_specification_id", "e"."home_lot_id" AS "e_home_lot_id", "e"."condition" AS "e_condition", "e"."status" AS "e_status", "e"."notes" AS "e_notes", "e"."lat" AS "e_lat", "e"."lng" AS "e_lng", "e"."location_type" AS "e_location_type", "e"."location_id" AS "e_location_id", "e"."location_updated_at" AS "e_location_updated_at" FROM "assets" "e" WHERE ( "e"."company_id" = $1 ) AND ( "e"."deleted_at" IS NULL ) ORDER BY "e"."created_at" DESC, "e"."id" DESC LIMIT 20 OFFSET 0;

-- AssetRepository.page (with filters)
SELECT "e"."id" AS "e_id", "e"."created_at" AS "e_created_at", "e"."updated_at" AS "e_updated_at", "e"."company_id" AS "e_company_id", "e"."deleted_at" AS "e_deleted_at", "e"."code" AS "e_code", "e"."serial" AS "e_serial", "e"."asset_specification_id" AS "e_asset_specification_id", "e"."home_lot_id" AS "e_home_lot_id", "e"."condition" AS "e_condition", "e"."status" AS "e_status", "e"."notes" AS "e_notes", "e"."lat" AS "e_lat", "e"."lng" AS "e_lng", "e"."location_type" AS "e_location_type", "e"."location_id" AS "e_location_id", "e"."location_updated_at" AS "e_location_updated_at" FROM "assets" "e" WHERE ( "e"."company_id" = $1 AND "e"."status" = $2 AND "e"."condition" = $3 AND "e"."asset_specification_id" = $4 AND "e"."home_lot_id" = $5 AND ("e"."code" ILIKE $6 OR "e"."serial" ILIKE $6) ) AND ( "e"."deleted_at" IS NULL ) ORDER BY "e"."code" ASC, "e"."id" ASC LIMIT 20 OFFSET 0;

-- AssetRepository.recordEvent: skipped (common's outbox insert (recordEventOf), snapshotted with common)

-- AssetRepository.releaseReserved
WITH pins AS (SELECT * FROM unnest($2::uuid[], $3::uuid[]) AS p(asset_id, order_id)), unpinned AS ( UPDATE container_reservations r SET asset_id = NULL, updated_at = now() FROM pins WHERE r.company_id = $1 AND r.released_at IS NULL AND r.asset_id = pins.asset_id AND r.order_id = pins.order_id) UPDATE assets a SET status = 'available', updated_at = now() WHERE a.id = ANY($2::uuid[]) AND a.company_id = $1 AND a.status = 'reserved' AND NOT EXISTS (SELECT 1 FROM container_reservations r WHERE r.asset_id = a.id AND r.released_at IS NULL AND NOT EXISTS (SELECT 1 FROM pins WHERE pins.asset_id = r.asset_id AND pins.order_id = r.order_id));

-- AssetRepository.remove
SELECT "Asset"."id" AS "Asset_id", "Asset"."created_at" AS "Asset_created_at", "Asset"."updated_at" AS "Asset_updated_at", "Asset"."company_id" AS "Asset_company_id", "Asset"."deleted_at" AS "Asset_deleted_at", "Asset"."code" AS "Asset_code", "Asset"."serial" AS "Asset_serial", "Asset"."asset_specification_id" AS "Asset_asset_specification_id", "Asset"."home_lot_id" AS "Asset_home_lot_id", "Asset"."condition" AS "Asset_condition", "Asset"."status" AS "Asset_status", "Asset"."notes" AS "Asset_notes", "Asset"."lat" AS "Asset_lat", "Asset"."lng" AS "Asset_lng", "Asset"."location_type" AS "Asset_location_type", "Asset"."location_id" AS "Asset_location_id", "Asset"."location_updated_at" AS "Asset_location_updated_at" FROM "assets" "Asset" WHERE ( (("Asset"."company_id" = $1) AND ("Asset"."id" = $2)) ) AND ( "Asset"."deleted_at" IS NULL ) LIMIT 1 FOR UPDATE;

-- AssetRepository.save: skipped (an UPDATE of the changed columns of a loaded row; the sample has no row)

-- AssetRepository.summaries
SELECT "Asset"."id" AS "Asset_id", "Asset"."code" AS "Asset_code", "Asset"."status" AS "Asset_status" FROM "assets" "Asset" WHERE (("Asset"."company_id" = $1) AND ("Asset"."id" IN ($2, $3)));

-- AssetRepository.update
UPDATE "assets" SET "status" = $1, "updated_at" = CURRENT_TIMESTAMP WHERE ("id" = $2 AND "company_id" = $3);

-- AssetRepository.updateRecord
SELECT "Asset"."id" AS "Asset_id", "Asset"."created_at" AS "Asset_created_at", "Asset"."updated_at" AS "Asset_updated_at", "Asset"."company_id" AS "Asset_company_id", "Asset"."deleted_at" AS "Asset_deleted_at", "Asset"."code" AS "Asset_code", "Asset"."serial" AS "Asset_serial", "Asset"."asset_specification_id" AS "Asset_asset_specification_id", "Asset"."home_lot_id" AS "Asset_home_lot_id", "Asset"."condition" AS "Asset_condition", "Asset"."status" AS "Asset_status", "Asset"."notes" AS "Asset_notes", "Asset"."lat" AS "Asset_lat", "Asset"."lng" AS "Asset_lng", "Asset"."location_type" AS "Asset_location_type", "Asset"."location_id" AS "Asset_location_id", "Asset"."location_updated_at" AS "Asset_location_updated_at" FROM "assets" "Asset" WHERE ( (("Asset"."company_id" = $1) AND ("Asset"."id" = $2)) ) AND ( "Asset"."deleted_at" IS NULL ) LIMIT 1 FOR UPDATE;
