-- WasteTypeRepository: statement snapshots (test/database/sql-snapshots.spec.ts; UPDATE_SQL_SNAPSHOTS=1 rewrites)

-- WasteTypeRepository.assertOwned
SELECT "ref"."id" AS "id" FROM "waste_types" "ref" WHERE ( "ref"."company_id" = $1 AND "ref"."id" IN ($2) ) AND ( "ref"."deleted_at" IS NULL ) FOR SHARE;

-- WasteTypeRepository.create
SELECT 1 FROM waste_types WHERE company_id = $1 AND lower(code) = lower($2) AND deleted_at IS NULL AND id IS DISTINCT FROM $3 LIMIT 1;
INSERT INTO "waste_types"("id", "created_at", "updated_at", "company_id", "deleted_at", "name", "code", "description", "prohibited_items", "hazardous", "active") VALUES (DEFAULT, DEFAULT, DEFAULT, $1, DEFAULT, $2, $3, DEFAULT, DEFAULT, DEFAULT, DEFAULT) RETURNING "id", "created_at", "updated_at", "deleted_at", "prohibited_items", "hazardous", "active";

-- WasteTypeRepository.find
SELECT "WasteType"."id" AS "WasteType_id", "WasteType"."created_at" AS "WasteType_created_at", "WasteType"."updated_at" AS "WasteType_updated_at", "WasteType"."company_id" AS "WasteType_company_id", "WasteType"."deleted_at" AS "WasteType_deleted_at", "WasteType"."name" AS "WasteType_name", "WasteType"."code" AS "WasteType_code", "WasteType"."description" AS "WasteType_description", "WasteType"."prohibited_items" AS "WasteType_prohibited_items", "WasteType"."hazardous" AS "WasteType_hazardous", "WasteType"."active" AS "WasteType_active" FROM "waste_types" "WasteType" WHERE ( (("WasteType"."company_id" = $1) AND ("WasteType"."id" = $2)) ) AND ( "WasteType"."deleted_at" IS NULL ) LIMIT 1;

-- WasteTypeRepository.liveIds
SELECT "WasteType"."id" AS "WasteType_id" FROM "waste_types" "WasteType" WHERE ( (("WasteType"."company_id" = $1) AND ("WasteType"."id" IN ($2, $3))) ) AND ( "WasteType"."deleted_at" IS NULL );

-- WasteTypeRepository.page (no filter)
SELECT "e"."id" AS "e_id", "e"."created_at" AS "e_created_at", "e"."updated_at" AS "e_updated_at", "e"."company_id" AS "e_company_id", "e"."deleted_at" AS "e_deleted_at", "e"."name" AS "e_name", "e"."code" AS "e_code", "e"."description" AS "e_description", "e"."prohibited_items" AS "e_prohibited_items", "e"."hazardous" AS "e_hazardous", "e"."active" AS "e_active" FROM "waste_types" "e" WHERE ( "e"."company_id" = $1 ) AND ( "e"."deleted_at" IS NULL ) ORDER BY "e"."created_at" DESC, "e"."id" DESC LIMIT 20 OFFSET 0;

-- WasteTypeRepository.page (with filters)
SELECT "e"."id" AS "e_id", "e"."created_at" AS "e_created_at", "e"."updated_at" AS "e_updated_at", "e"."company_id" AS "e_company_id", "e"."deleted_at" AS "e_deleted_at", "e"."name" AS "e_name", "e"."code" AS "e_code", "e"."description" AS "e_description", "e"."prohibited_items" AS "e_prohibited_items", "e"."hazardous" AS "e_hazardous", "e"."active" AS "e_active" FROM "waste_types" "e" WHERE ( "e"."company_id" = $1 AND "e"."hazardous" = $2 AND "e"."active" = $3 AND ("e"."name" ILIKE $4 OR "e"."code" ILIKE $4) ) AND ( "e"."deleted_at" IS NULL ) ORDER BY "e"."name" ASC, "e"."id" ASC LIMIT 20 OFFSET 0;

-- WasteTypeRepository.refs
SELECT "WasteType"."id" AS "WasteType_id", "WasteType"."name" AS "WasteType_name" FROM "waste_types" "WasteType" WHERE (("WasteType"."company_id" = $1) AND ("WasteType"."id" IN ($2, $3))) ORDER BY "WasteType_name" ASC, "WasteType_id" ASC;

-- WasteTypeRepository.remove
SELECT "WasteType"."id" AS "WasteType_id", "WasteType"."created_at" AS "WasteType_created_at", "WasteType"."updated_at" AS "WasteType_updated_at", "WasteType"."company_id" AS "WasteType_company_id", "WasteType"."deleted_at" AS "WasteType_deleted_at", "WasteType"."name" AS "WasteType_name", "WasteType"."code" AS "WasteType_code", "WasteType"."description" AS "WasteType_description", "WasteType"."prohibited_items" AS "WasteType_prohibited_items", "WasteType"."hazardous" AS "WasteType_hazardous", "WasteType"."active" AS "WasteType_active" FROM "waste_types" "WasteType" WHERE ( (("WasteType"."company_id" = $1) AND ("WasteType"."id" = $2)) ) AND ( "WasteType"."deleted_at" IS NULL ) LIMIT 1 FOR UPDATE;

-- WasteTypeRepository.update
SELECT "WasteType"."id" AS "WasteType_id", "WasteType"."created_at" AS "WasteType_created_at", "WasteType"."updated_at" AS "WasteType_updated_at", "WasteType"."company_id" AS "WasteType_company_id", "WasteType"."deleted_at" AS "WasteType_deleted_at", "WasteType"."name" AS "WasteType_name", "WasteType"."code" AS "WasteType_code", "WasteType"."description" AS "WasteType_description", "WasteType"."prohibited_items" AS "WasteType_prohibited_items", "WasteType"."hazardous" AS "WasteType_hazardous", "WasteType"."active" AS "WasteType_active" FROM "waste_types" "WasteType" WHERE ( (("WasteType"."company_id" = $1) AND ("WasteType"."id" = $2)) ) AND ( "WasteType"."deleted_at" IS NULL ) LIMIT 1 FOR UPDATE;
