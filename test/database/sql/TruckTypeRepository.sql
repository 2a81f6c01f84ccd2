-- TruckTypeRepository: statement snapshots (test/database/sql-snapshots.spec.ts; UPDATE_SQL_SNAPSHOTS=1 rewrites)

-- TruckTypeRepository.assertOwned
SELECT "ref"."id" AS "id" FROM "truck_types" "ref" WHERE ( "ref"."company_id" = $1 AND "ref"."id" IN ($2) ) AND ( "ref"."deleted_at" IS NULL ) FOR SHARE;

-- TruckTypeRepository.create
INSERT INTO "truck_types"("id", "created_at", "updated_at", "company_id", "name", "capacity_kg", "deleted_at") VALUES (DEFAULT, DEFAULT, DEFAULT, $1, $2, $3, DEFAULT) RETURNING "id", "created_at", "updated_at", "capacity_kg", "deleted_at";

-- TruckTypeRepository.find
SELECT "TruckType"."id" AS "TruckType_id", "TruckType"."created_at" AS "TruckType_created_at", "TruckType"."updated_at" AS "TruckType_updated_at", "TruckType"."company_id" AS "TruckType_company_id", "TruckType"."name" AS "TruckType_name", "TruckType"."capacity_kg" AS "TruckType_capacity_kg", "TruckType"."deleted_at" AS "TruckType_deleted_at" FROM "truck_types" "TruckType" WHERE ( (("TruckType"."company_id" = $1) AND ("TruckType"."id" = $2)) ) AND ( "TruckType"."deleted_at" IS NULL ) LIMIT 1;

-- TruckTypeRepository.list (no filter)
SELECT "t"."id" AS "t_id", "t"."created_at" AS "t_created_at", "t"."updated_at" AS "t_updated_at", "t"."company_id" AS "t_company_id", "t"."name" AS "t_name", "t"."capacity_kg" AS "t_capacity_kg", "t"."deleted_at" AS "t_deleted_at" FROM "truck_types" "t" WHERE ( "t"."company_id" = $1 ) AND ( "t"."deleted_at" IS NULL ) ORDER BY "t"."created_at" DESC, "t"."id" DESC LIMIT 20 OFFSET 0;

-- TruckTypeRepository.list (with filters)
SELECT "t"."id" AS "t_id", "t"."created_at" AS "t_created_at", "t"."updated_at" AS "t_updated_at", "t"."company_id" AS "t_company_id", "t"."name" AS "t_name", "t"."capacity_kg" AS "t_capacity_kg", "t"."deleted_at" AS "t_deleted_at" FROM "truck_types" "t" WHERE ( "t"."company_id" = $1 AND "t"."name" ILIKE $2 ) AND ( "t"."deleted_at" IS NULL ) ORDER BY "t"."name" ASC, "t"."id" ASC LIMIT 20 OFFSET 0;

-- TruckTypeRepository.lock
SELECT "TruckType"."id" AS "TruckType_id", "TruckType"."created_at" AS "TruckType_created_at", "TruckType"."updated_at" AS "TruckType_updated_at", "TruckType"."company_id" AS "TruckType_company_id", "TruckType"."name" AS "TruckType_name", "TruckType"."capacity_kg" AS "TruckType_capacity_kg", "TruckType"."deleted_at" AS "TruckType_deleted_at" FROM "truck_types" "TruckType" WHERE ( (("TruckType"."company_id" = $1) AND ("TruckType"."id" = $2)) ) AND ( "TruckType"."deleted_at" IS NULL ) LIMIT 1 FOR UPDATE;

-- TruckTypeRepository.remove
SELECT "TruckType"."id" AS "TruckType_id", "TruckType"."created_at" AS "TruckType_created_at", "TruckType"."updated_at" AS "TruckType_updated_at", "TruckType"."company_id" AS "TruckType_company_id", "TruckType"."name" AS "TruckType_name", "TruckType"."capacity_kg" AS "TruckType_capacity_kg", "TruckType"."deleted_at" AS "TruckType_deleted_at" FROM "truck_types" "TruckType" WHERE ( (("TruckType"."company_id" = $1) AND ("TruckType"."id" = $2)) ) AND ( "TruckType"."deleted_at" IS NULL ) LIMIT 1 FOR UPDATE;

-- TruckTypeRepository.replaceSpecifications
DELETE FROM truck_type_asset_specifications WHERE truck_type_id = $1;
INSERT INTO truck_type_asset_specifications (truck_type_id, asset_specification_id) SELECT $1, unnest($2::uuid[]);

-- TruckTypeRepository.specificationIds
SELECT truck_type_id AS owner, asset_specification_id AS spec FROM truck_type_asset_specifications WHERE truck_type_id = ANY($1::uuid[]) ORDER BY asset_specification_id;

-- TruckTypeRepository.update
SELECT "TruckType"."id" AS "TruckType_id", "TruckType"."created_at" AS "TruckType_created_at", "TruckType"."updated_at" AS "TruckType_updated_at", "TruckType"."company_id" AS "TruckType_company_id", "TruckType"."name" AS "TruckType_name", "TruckType"."capacity_kg" AS "TruckType_capacity_kg", "TruckType"."deleted_at" AS "TruckType_deleted_at" FROM "truck_types" "TruckType" WHERE ( (("TruckType"."company_id" = $1) AND ("TruckType"."id" = $2)) ) AND ( "TruckType"."deleted_at" IS NULL ) LIMIT 1 FOR UPDATE;
