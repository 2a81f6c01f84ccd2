-- PolicyRepository: statement snapshots (test/database/sql-snapshots.spec.ts; UPDATE_SQL_SNAPSHOTS=1 rewrites)

-- PolicyRepository.lockAmong
SELECT "p"."id" AS "p_id", "p"."created_at" AS "p_created_at", "p"."updated_at" AS "p_updated_at", "p"."company_id" AS "p_company_id", "p"."name" AS "p_name", "p"."category" AS "p_category", "p"."demerit_points" AS "p_demerit_points", "p"."fee_amount" AS "p_fee_amount", "p"."description" AS "p_description", "p"."active" AS "p_active", "p"."deleted_at" AS "p_deleted_at" FROM "policies" "p" WHERE ( "p"."company_id" = $1 AND "p"."id" IN ($2, $3) ) AND ( "p"."deleted_at" IS NULL ) FOR SHARE;

-- PolicyRepository.page
SELECT "p"."id" AS "p_id", "p"."created_at" AS "p_created_at", "p"."updated_at" AS "p_updated_at", "p"."company_id" AS "p_company_id", "p"."name" AS "p_name", "p"."category" AS "p_category", "p"."demerit_points" AS "p_demerit_points", "p"."fee_amount" AS "p_fee_amount", "p"."description" AS "p_description", "p"."active" AS "p_active", "p"."deleted_at" AS "p_deleted_at" FROM "policies" "p" WHERE ( "p"."company_id" = $1 ) AND ( "p"."deleted_at" IS NULL ) ORDER BY "p"."created_at" DESC, "p"."id" DESC LIMIT 20 OFFSET 0;
