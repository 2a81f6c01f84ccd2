-- AssetCategoryStyleRepository: statement snapshots (test/database/sql-snapshots.spec.ts; UPDATE_SQL_SNAPSHOTS=1 rewrites)

-- AssetCategoryStyleRepository.assertOwned
SELECT "ref"."id" AS "id" FROM "asset_styles" "ref" WHERE ( "ref"."company_id" = $1 AND "ref"."id" IN ($2) ) AND ( "ref"."deleted_at" IS NULL ) FOR SHARE;

-- AssetCategoryStyleRepository.create
SELECT 1 FROM asset_categories WHERE company_id = $1 AND lower(name) = lower($2) AND deleted_at IS NULL AND id IS DISTINCT FROM $3 LIMIT 1;
INSERT INTO "asset_categories"("id", "created_at", "updated_at", "company_id", "deleted_at", "name", "description") VALUES (DEFAULT, DEFAULT, DEFAULT, $1, DEFAULT, $2, $3) RETURNING "id", "created_at", "updated_at", "deleted_at";

-- AssetCategoryStyleRepository.find (category)
SELECT "AssetCategory"."id" AS "AssetCategory_id", "AssetCategory"."created_at" AS "AssetCategory_created_at", "AssetCategory"."updated_at" AS "AssetCategory_updated_at", "AssetCategory"."company_id" AS "AssetCategory_company_id", "AssetCategory"."deleted_at" AS "AssetCategory_deleted_at", "AssetCategory"."name" AS "AssetCategory_name", "AssetCategory"."description" AS "AssetCategory_description" FROM "asset_categories" "AssetCategory" WHERE ( (("AssetCategory"."company_id" = $1) AND ("AssetCategory"."id" = $2)) ) AND ( "AssetCategory"."deleted_at" IS NULL ) LIMIT 1;

-- AssetCategoryStyleRepository.find (style)
SELECT "AssetStyle"."id" AS "AssetStyle_id", "AssetStyle"."created_at" AS "AssetStyle_created_at", "AssetStyle"."updated_at" AS "AssetStyle_updated_at", "AssetStyle"."company_id" AS "AssetStyle_company_id", "AssetStyle"."deleted_at" AS "AssetStyle_deleted_at", "AssetStyle"."name" AS "AssetStyle_name", "AssetStyle"."description" AS "AssetStyle_description" FROM "asset_styles" "AssetStyle" WHERE ( (("AssetStyle"."company_id" = $1) AND ("AssetStyle"."id" = $2)) ) AND ( "AssetStyle"."deleted_at" IS NULL ) LIMIT 1;

-- AssetCategoryStyleRepository.page (categories)
SELECT "e"."id" AS "e_id", "e"."created_at" AS "e_created_at", "e"."updated_at" AS "e_updated_at", "e"."company_id" AS "e_company_id", "e"."deleted_at" AS "e_deleted_at", "e"."name" AS "e_name", "e"."description" AS "e_description" FROM "asset_categories" "e" WHERE ( "e"."company_id" = $1 AND "e"."name" ILIKE $2 ) AND ( "e"."deleted_at" IS NULL ) ORDER BY "e"."name" ASC, "e"."id" ASC LIMIT 20 OFFSET 0;

-- AssetCategoryStyleRepository.page (styles)
SELECT "e"."id" AS "e_id", "e"."created_at" AS "e_created_at", "e"."updated_at" AS "e_updated_at", "e"."company_id" AS "e_company_id", "e"."deleted_at" AS "e_deleted_at", "e"."name" AS "e_name", "e"."description" AS "e_description" FROM "asset_styles" "e" WHERE ( "e"."company_id" = $1 ) AND ( "e"."deleted_at" IS NULL ) ORDER BY "e"."created_at" DESC, "e"."id" DESC LIMIT 20 OFFSET 0;

-- AssetCategoryStyleRepository.remove
SELECT "AssetCategory"."id" AS "AssetCategory_id", "AssetCategory"."created_at" AS "AssetCategory_created_at", "AssetCategory"."updated_at" AS "AssetCategory_updated_at", "AssetCategory"."company_id" AS "AssetCategory_company_id", "AssetCategory"."deleted_at" AS "AssetCategory_deleted_at", "AssetCategory"."name" AS "AssetCategory_name", "AssetCategory"."description" AS "AssetCategory_description" FROM "asset_categories" "AssetCategory" WHERE ( (("AssetCategory"."company_id" = $1) AND ("AssetCategory"."id" = $2)) ) AND ( "AssetCategory"."deleted_at" IS NULL ) LIMIT 1 FOR UPDATE;

-- AssetCategoryStyleRepository.update
SELECT "AssetStyle"."id" AS "AssetStyle_id", "AssetStyle"."created_at" AS "AssetStyle_created_at", "AssetStyle"."updated_at" AS "AssetStyle_updated_at", "AssetStyle"."company_id" AS "AssetStyle_company_id", "AssetStyle"."deleted_at" AS "AssetStyle_deleted_at", "AssetStyle"."name" AS "AssetStyle_name", "AssetStyle"."description" AS "AssetStyle_description" FROM "asset_styles" "AssetStyle" WHERE ( (("AssetStyle"."company_id" = $1) AND ("AssetStyle"."id" = $2)) ) AND ( "AssetStyle"."deleted_at" IS NULL ) LIMIT 1 FOR UPDATE;
