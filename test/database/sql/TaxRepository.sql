-- TaxRepository: statement snapshots (test/database/sql-snapshots.spec.ts; UPDATE_SQL_SNAPSHOTS=1 rewrites)

-- TaxRepository.page
SELECT "t"."id" AS "t_id", "t"."created_at" AS "t_created_at", "t"."updated_at" AS "t_updated_at", "t"."company_id" AS "t_company_id", "t"."name" AS "t_name", "t"."rate_bps" AS "t_rate_bps", "t"."applies_to" AS "t_applies_to", "t"."is_default" AS "t_is_default", "t"."deleted_at" AS "t_deleted_at" FROM "taxes" "t" WHERE ( "t"."company_id" = $1 ) AND ( "t"."deleted_at" IS NULL ) ORDER BY "t"."created_at" DESC, "t"."id" DESC LIMIT 20 OFFSET 0;
