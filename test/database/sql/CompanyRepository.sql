-- CompanyRepository: statement snapshots (test/database/sql-snapshots.spec.ts; UPDATE_SQL_SNAPSHOTS=1 rewrites)

-- CompanyRepository.find (all columns)
SELECT "Company"."id" AS "Company_id", "Company"."created_at" AS "Company_created_at", "Company"."updated_at" AS "Company_updated_at", "Company"."owner_id" AS "Company_owner_id", "Company"."name" AS "Company_name", "Company"."email" AS "Company_email", "Company"."phone" AS "Company_phone", "Company"."address" AS "Company_address", "Company"."timezone" AS "Company_timezone", "Company"."currency" AS "Company_currency", "Company"."status" AS "Company_status", "Company"."platform_fee_bps" AS "Company_platform_fee_bps", "Company"."plan_override" AS "Company_plan_override", "Company"."feature_flags" AS "Company_feature_flags", "Company"."deleted_at" AS "Company_deleted_at" FROM "companies" "Company" WHERE ( (("Company"."id" = $1)) ) AND ( "Company"."deleted_at" IS NULL ) LIMIT 1;

-- CompanyRepository.find (some columns)
SELECT "Company"."id" AS "Company_id", "Company"."name" AS "Company_name", "Company"."timezone" AS "Company_timezone" FROM "companies" "Company" WHERE ( (("Company"."id" = $1)) ) AND ( "Company"."deleted_at" IS NULL ) LIMIT 1;

-- CompanyRepository.insert
INSERT INTO "companies"("id", "created_at", "updated_at", "owner_id", "name", "email", "phone", "address", "timezone", "currency", "status", "platform_fee_bps", "plan_override", "feature_flags", "deleted_at") VALUES (DEFAULT, DEFAULT, DEFAULT, DEFAULT, $1, $2, DEFAULT, DEFAULT, $3, $4, DEFAULT, DEFAULT, DEFAULT, DEFAULT, DEFAULT) RETURNING "id", "created_at", "updated_at", "timezone", "currency", "status", "feature_flags", "deleted_at";

-- CompanyRepository.isActive
SELECT 1 AS "row_exists" FROM (SELECT 1 AS dummy_column) "dummy_table" WHERE EXISTS (SELECT 1 FROM "companies" "Company" WHERE ( (("Company"."id" = $1) AND ("Company"."status" = $2)) ) AND ( "Company"."deleted_at" IS NULL )) LIMIT 1;

-- CompanyRepository.lock
SELECT "Company"."id" AS "Company_id", "Company"."created_at" AS "Company_created_at", "Company"."updated_at" AS "Company_updated_at", "Company"."owner_id" AS "Company_owner_id", "Company"."name" AS "Company_name", "Company"."email" AS "Company_email", "Company"."phone" AS "Company_phone", "Company"."address" AS "Company_address", "Company"."timezone" AS "Company_timezone", "Company"."currency" AS "Company_currency", "Company"."status" AS "Company_status", "Company"."platform_fee_bps" AS "Company_platform_fee_bps", "Company"."plan_override" AS "Company_plan_override", "Company"."feature_flags" AS "Company_feature_flags", "Company"."deleted_at" AS "Company_deleted_at" FROM "companies" "Company" WHERE ( (("Company"."id" = $1)) ) AND ( "Company"."deleted_at" IS NULL ) LIMIT 1 FOR UPDATE;

-- CompanyRepository.name
SELECT "Company"."id" AS "Company_id", "Company"."name" AS "Company_name" FROM "companies" "Company" WHERE (("Company"."id" = $1)) LIMIT 1;

-- CompanyRepository.page
SELECT "c"."id" AS "c_id", "c"."created_at" AS "c_created_at", "c"."updated_at" AS "c_updated_at", "c"."owner_id" AS "c_owner_id", "c"."name" AS "c_name", "c"."email" AS "c_email", "c"."phone" AS "c_phone", "c"."address" AS "c_address", "c"."timezone" AS "c_timezone", "c"."currency" AS "c_currency", "c"."status" AS "c_status", "c"."platform_fee_bps" AS "c_platform_fee_bps", "c"."plan_override" AS "c_plan_override", "c"."feature_flags" AS "c_feature_flags", "c"."deleted_at" AS "c_deleted_at" FROM "companies" "c" WHERE "c"."deleted_at" IS NULL ORDER BY "c"."created_at" DESC, "c"."id" DESC LIMIT 20 OFFSET 0;

-- CompanyRepository.save
SELECT "Company"."id" AS "Company_id", "Company"."created_at" AS "Company_created_at", "Company"."updated_at" AS "Company_updated_at", "Company"."owner_id" AS "Company_owner_id", "Company"."name" AS "Company_name", "Company"."email" AS "Company_email", "Company"."phone" AS "Company_phone", "Company"."address" AS "Company_address", "Company"."timezone" AS "Company_timezone", "Company"."currency" AS "Company_currency", "Company"."status" AS "Company_status", "Company"."platform_fee_bps" AS "Company_platform_fee_bps", "Company"."plan_override" AS "Company_plan_override", "Company"."feature_flags" AS "Company_feature_flags", "Company"."deleted_at" AS "Company_deleted_at" FROM "companies" "Company" WHERE "Company"."id" = $1;
INSERT INTO "companies"("id", "created_at", "updated_at", "owner_id", "name", "email", "phone", "address", "timezone", "currency", "status", "platform_fee_bps", "plan_override", "feature_flags", "deleted_at") VALUES ($1, DEFAULT, DEFAULT, DEFAULT, $2, DEFAULT, DEFAULT, DEFAULT, DEFAULT, DEFAULT, DEFAULT, DEFAULT, DEFAULT, DEFAULT, DEFAULT) RETURNING "id", "created_at", "updated_at", "timezone", "currency", "status", "feature_flags", "deleted_at";

-- CompanyRepository.statusCounts
SELECT status, count(*)::int AS total, (count(*) FILTER (WHERE created_at >= $1::date AND created_at < $2::date + 1))::int AS created FROM companies WHERE deleted_at IS NULL GROUP BY status ORDER BY status;

-- CompanyRepository.update
UPDATE "companies" SET "name" = $1, "updated_at" = CURRENT_TIMESTAMP WHERE "id" = $2;
