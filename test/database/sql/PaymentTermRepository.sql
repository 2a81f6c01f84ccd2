-- PaymentTermRepository: statement snapshots (test/database/sql-snapshots.spec.ts; UPDATE_SQL_SNAPSHOTS=1 rewrites)

-- PaymentTermRepository.page
SELECT "p"."id" AS "p_id", "p"."created_at" AS "p_created_at", "p"."updated_at" AS "p_updated_at", "p"."company_id" AS "p_company_id", "p"."name" AS "p_name", "p"."due_days" AS "p_due_days", "p"."is_default" AS "p_is_default", "p"."deleted_at" AS "p_deleted_at" FROM "payment_terms" "p" WHERE ( "p"."company_id" = $1 ) AND ( "p"."deleted_at" IS NULL ) ORDER BY "p"."created_at" DESC, "p"."id" DESC LIMIT 20 OFFSET 0;
