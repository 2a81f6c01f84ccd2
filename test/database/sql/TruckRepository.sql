-- TruckRepository: statement snapshots (test/database/sql-snapshots.spec.ts; UPDATE_SQL_SNAPSHOTS=1 rewrites)

-- TruckRepository.assertOwned
SELECT "ref"."id" AS "id" FROM "trucks" "ref" WHERE ( "ref"."company_id" = $1 AND "ref"."id" IN ($2) ) AND ( "ref"."deleted_at" IS NULL ) FOR SHARE;

-- TruckRepository.basedAt
SELECT 1 AS "row_exists" FROM (SELECT 1 AS dummy_column) "dummy_table" WHERE EXISTS (SELECT 1 FROM "trucks" "Truck" WHERE ( (("Truck"."home_lot_id" = $1)) ) AND ( "Truck"."deleted_at" IS NULL )) LIMIT 1;

-- TruckRepository.carrierQuery
-- (no statement)

-- TruckRepository.carriers
SELECT "t"."id" AS id, "t"."plate" AS plate, "t"."name" AS name, "t"."status" AS status, "t"."truck_type_id" AS truck_type_id, "t"."home_lot_id" AS home_lot_id, "t"."lat" AS lat, "t"."lng" AS lng, (SELECT tt.name FROM truck_types tt WHERE tt.id = "t"."truck_type_id") AS "type_name", (SELECT coalesce(string_agg(l.asset_specification_id::text, ',' ORDER BY l.asset_specification_id), '') FROM truck_type_asset_specifications l WHERE l.truck_type_id = "t"."truck_type_id") AS "spec_ids" FROM "trucks" "t" WHERE ( "t"."company_id" = $1 ) AND ( "t"."deleted_at" IS NULL ) ORDER BY "t"."plate" ASC, "t"."id" ASC;

-- TruckRepository.carriersLocked
SELECT "t"."id" AS id, "t"."plate" AS plate, "t"."name" AS name, "t"."status" AS status, "t"."truck_type_id" AS truck_type_id, "t"."home_lot_id" AS home_lot_id, "t"."lat" AS lat, "t"."lng" AS lng, (SELECT tt.name FROM truck_types tt WHERE tt.id = "t"."truck_type_id") AS "type_name", (SELECT coalesce(string_agg(l.asset_specification_id::text, ',' ORDER BY l.asset_specification_id), '') FROM truck_type_asset_specifications l WHERE l.truck_type_id = "t"."truck_type_id") AS "spec_ids" FROM "trucks" "t" WHERE ( "t"."company_id" = $1 AND "t"."id" IN ($2, $3) ) AND ( "t"."deleted_at" IS NULL ) FOR SHARE OF t;

-- TruckRepository.create
SELECT 1 FROM trucks WHERE company_id = $1 AND lower(plate) = lower($2) AND deleted_at IS NULL AND id IS DISTINCT FROM $3 LIMIT 1;
INSERT INTO "trucks"("id", "created_at", "updated_at", "company_id", "plate", "name", "truck_type_id", "home_lot_id", "tare_weight_kg", "status", "lat", "lng", "location_updated_at", "deleted_at") VALUES (DEFAULT, DEFAULT, DEFAULT, $1, $2, DEFAULT, $3, DEFAULT, DEFAULT, DEFAULT, DEFAULT, DEFAULT, DEFAULT, DEFAULT) RETURNING "id", "created_at", "updated_at", "status", "deleted_at";

-- TruckRepository.find
SELECT "Truck"."id" AS "Truck_id", "Truck"."created_at" AS "Truck_created_at", "Truck"."updated_at" AS "Truck_updated_at", "Truck"."company_id" AS "Truck_company_id", "Truck"."plate" AS "Truck_plate", "Truck"."name" AS "Truck_name", "Truck"."truck_type_id" AS "Truck_truck_type_id", "Truck"."home_lot_id" AS "Truck_home_lot_id", "Truck"."tare_weight_kg" AS "Truck_tare_weight_kg", "Truck"."status" AS "Truck_status", "Truck"."lat" AS "Truck_lat", "Truck"."lng" AS "Truck_lng", "Truck"."location_updated_at" AS "Truck_location_updated_at", "Truck"."deleted_at" AS "Truck_deleted_at" FROM "trucks" "Truck" WHERE ( (("Truck"."company_id" = $1) AND ("Truck"."id" = $2)) ) AND ( "Truck"."deleted_at" IS NULL ) LIMIT 1;

-- TruckRepository.follow
UPDATE "trucks" SET "lat" = $1, "lng" = $2, "location_updated_at" = $3, "updated_at" = CURRENT_TIMESTAMP WHERE "id" = $4 AND "company_id" = $5 AND ("location_updated_at" IS NULL OR "location_updated_at" <= $6);

-- TruckRepository.list (no filter)
SELECT "t"."id" AS "t_id", "t"."created_at" AS "t_created_at", "t"."updated_at" AS "t_updated_at", "t"."company_id" AS "t_company_id", "t"."plate" AS "t_plate", "t"."name" AS "t_name", "t"."truck_type_id" AS "t_truck_type_id", "t"."home_lot_id" AS "t_home_lot_id", "t"."tare_weight_kg" AS "t_tare_weight_kg", "t"."status" AS "t_status", "t"."lat" AS "t_lat", "t"."lng" AS "t_lng", "t"."location_updated_at" AS "t_location_updated_at", "t"."deleted_at" AS "t_deleted_at" FROM "trucks" "t" WHERE ( "t"."company_id" = $1 ) AND ( "t"."deleted_at" IS NULL ) ORDER BY "t"."created_at" DESC, "t"."id" DESC LIMIT 20 OFFSET 0;

-- TruckRepository.list (with filters)
SELECT "t"."id" AS "t_id", "t"."created_at" AS "t_created_at", "t"."updated_at" AS "t_updated_at", "t"."company_id" AS "t_company_id", "t"."plate" AS "t_plate", "t"."name" AS "t_name", "t"."truck_type_id" AS "t_truck_type_id", "t"."home_lot_id" AS "t_home_lot_id", "t"."tare_weight_kg" AS "t_tare_weight_kg", "t"."status" AS "t_status", "t"."lat" AS "t_lat", "t"."lng" AS "t_lng", "t"."location_updated_at" AS "t_location_updated_at", "t"."deleted_at" AS "t_deleted_at" FROM "trucks" "t" WHERE ( "t"."company_id" = $1 AND "t"."status" = $2 AND "t"."truck_type_id" = $3 AND "t"."home_lot_id" = $4 AND ("t"."plate" ILIKE $5 OR "t"."name" ILIKE $5) ) AND ( "t"."deleted_at" IS NULL ) ORDER BY "t"."plate" ASC, "t"."id" ASC LIMIT 20 OFFSET 0;

-- TruckRepository.lock
SELECT "Truck"."id" AS "Truck_id", "Truck"."created_at" AS "Truck_created_at", "Truck"."updated_at" AS "Truck_updated_at", "Truck"."company_id" AS "Truck_company_id", "Truck"."plate" AS "Truck_plate", "Truck"."name" AS "Truck_name", "Truck"."truck_type_id" AS "Truck_truck_type_id", "Truck"."home_lot_id" AS "Truck_home_lot_id", "Truck"."tare_weight_kg" AS "Truck_tare_weight_kg", "Truck"."status" AS "Truck_status", "Truck"."lat" AS "Truck_lat", "Truck"."lng" AS "Truck_lng", "Truck"."location_updated_at" AS "Truck_location_updated_at", "Truck"."deleted_at" AS "Truck_deleted_at" FROM "trucks" "Truck" WHERE ( (("Truck"."company_id" = $1) AND ("Truck"."id" = $2)) ) AND ( "Truck"."deleted_at" IS NULL ) LIMIT 1 FOR UPDATE;

-- TruckRepository.remove
SELECT "Truck"."id" AS "Truck_id", "Truck"."created_at" AS "Truck_created_at", "Truck"."updated_at" AS "Truck_updated_at", "Truck"."company_id" AS "Truck_company_id", "Truck"."plate" AS "Truck_plate", "Truck"."name" AS "Truck_name", "Truck"."truck_type_id" AS "Truck_truck_type_id", "Truck"."home_lot_id" AS "Truck_home_lot_id", "Truck"."tare_weight_kg" AS "Truck_tare_weight_kg", "Truck"."status" AS "Truck_status", "Truck"."lat" AS "Truck_lat", "Truck"."lng" AS "Truck_lng", "Truck"."location_updated_at" AS "Truck_location_updated_at", "Truck"."deleted_at" AS "Truck_deleted_at" FROM "trucks" "Truck" WHERE ( (("Truck"."company_id" = $1) AND ("Truck"."id" = $2)) ) AND ( "Truck"."deleted_at" IS NULL ) LIMIT 1 FOR UPDATE;

-- TruckRepository.savePosition
SELECT "Truck"."id" AS "Truck_id", "Truck"."created_at" AS "Truck_created_at", "Truck"."updated_at" AS "Truck_updated_at", "Truck"."company_id" AS "Truck_company_id", "Truck"."plate" AS "Truck_plate", "Truck"."name" AS "Truck_name", "Truck"."truck_type_id" AS "Truck_truck_type_id", "Truck"."home_lot_id" AS "Truck_home_lot_id", "Truck"."tare_weight_kg" AS "Truck_tare_weight_kg", "Truck"."status" AS "Truck_status", "Truck"."lat" AS "Truck_lat", "Truck"."lng" AS "Truck_lng", "Truck"."location_updated_at" AS "Truck_location_updated_at", "Truck"."deleted_at" AS "Truck_deleted_at" FROM "trucks" "Truck" WHERE "Truck"."id" = $1;
INSERT INTO "trucks"("id", "created_at", "updated_at", "company_id", "plate", "name", "truck_type_id", "home_lot_id", "tare_weight_kg", "status", "lat", "lng", "location_updated_at", "deleted_at") VALUES ($1, DEFAULT, DEFAULT, $2, DEFAULT, DEFAULT, DEFAULT, DEFAULT, DEFAULT, DEFAULT, $3, $4, $5, DEFAULT) RETURNING "id", "created_at", "updated_at", "status", "deleted_at";

-- TruckRepository.statuses
SELECT "t"."id" AS "id", "t"."status" AS "status" FROM "trucks" "t" WHERE ( "t"."company_id" = $1 AND "t"."id" IN ($2, $3) ) AND ( "t"."deleted_at" IS NULL ) FOR SHARE;

-- TruckRepository.summaries
SELECT "Truck"."id" AS "Truck_id", "Truck"."plate" AS "Truck_plate", "Truck"."name" AS "Truck_name", "Truck"."lat" AS "Truck_lat", "Truck"."lng" AS "Truck_lng" FROM "trucks" "Truck" WHERE (("Truck"."company_id" = $1) AND ("Truck"."id" IN ($2, $3)));

-- TruckRepository.update
SELECT "Truck"."id" AS "Truck_id", "Truck"."created_at" AS "Truck_created_at", "Truck"."updated_at" AS "Truck_updated_at", "Truck"."company_id" AS "Truck_company_id", "Truck"."plate" AS "Truck_plate", "Truck"."name" AS "Truck_name", "Truck"."truck_type_id" AS "Truck_truck_type_id", "Truck"."home_lot_id" AS "Truck_home_lot_id", "Truck"."tare_weight_kg" AS "Truck_tare_weight_kg", "Truck"."status" AS "Truck_status", "Truck"."lat" AS "Truck_lat", "Truck"."lng" AS "Truck_lng", "Truck"."location_updated_at" AS "Truck_location_updated_at", "Truck"."deleted_at" AS "Truck_deleted_at" FROM "trucks" "Truck" WHERE ( (("Truck"."company_id" = $1) AND ("Truck"."id" = $2)) ) AND ( "Truck"."deleted_at" IS NULL ) LIMIT 1 FOR UPDATE;
