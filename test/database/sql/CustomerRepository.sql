-- CustomerRepository: statement snapshots (test/database/sql-snapshots.spec.ts; UPDATE_SQL_SNAPSHOTS=1 rewrites)

-- CustomerRepository.assignedProfile
SELECT 1 AS "row_exists" FROM (SELECT 1 AS dummy_column) "dummy_table" WHERE EXISTS (SELECT 1 FROM "customers" "Customer" WHERE (("Customer"."pricing_profile_id" = $1))) LIMIT 1;

-- CustomerRepository.companyOf
SELECT "r"."company_id" AS "company_id" FROM "customers" "r" WHERE "r"."id" = $1;

-- CustomerRepository.demerit
SELECT "Customer"."id" AS "Customer_id", "Customer"."demerit_points" AS "Customer_demerit_points", "Customer"."demerit_blocked" AS "Customer_demerit_blocked" FROM "customers" "Customer" WHERE (("Customer"."id" = $1) AND ("Customer"."company_id" = $2)) LIMIT 1;

-- CustomerRepository.find
SELECT DISTINCT "distinctAlias"."Customer_id" AS "ids_Customer_id" FROM (SELECT "Customer"."id" AS "Customer_id", "Customer"."company_id" AS "Customer_company_id", "Customer"."notes" AS "Customer_notes", "Customer"."created_at" AS "Customer_created_at", "Customer"."updated_at" AS "Customer_updated_at", "Customer"."billing_name" AS "Customer_billing_name", "Customer"."billing_email" AS "Customer_billing_email", "Customer"."tax_exempt" AS "Customer_tax_exempt", "Customer"."pricing_profile_id" AS "Customer_pricing_profile_id", "Customer"."demerit_points" AS "Customer_demerit_points", "Customer"."demerit_blocked" AS "Customer_demerit_blocked", "Customer__Customer_user"."id" AS "Customer__Customer_user_id", "Customer__Customer_user"."created_at" AS "Customer__Customer_user_created_at", "Customer__Customer_user"."updated_at" AS "Customer__Customer_user_updated_at", "Customer__Customer_user"."type" AS "Customer__Customer_user_type", "Customer__Customer_user"."name" AS "Customer__Customer_user_name", "Customer__Customer_user"."email" AS "Customer__Customer_user_email", "Customer__Customer_user"."phone" AS "Customer__Customer_user_phone", "Customer__Customer_user"."status" AS "Customer__Customer_user_status", "Customer__Customer_user"."company_id" AS "Customer__Customer_user_company_id", "Customer__Customer_user"."email_verified_at" AS "Customer__Customer_user_email_verified_at" FROM "customers" "Customer" LEFT JOIN "users" "Customer__Customer_user" ON "Customer__Customer_user"."id"="Customer"."id" WHERE (("Customer"."company_id" = $1) AND ("Customer"."id" = $2))) "distinctAlias" ORDER BY "Customer_id" ASC LIMIT 1;

-- CustomerRepository.insertProfile
INSERT INTO "customers"("id", "company_id", "notes", "created_at", "updated_at", "billing_name", "billing_email", "tax_exempt", "pricing_profile_id", "demerit_points", "demerit_blocked") VALUES ($1, $2, DEFAULT, DEFAULT, DEFAULT, DEFAULT, DEFAULT, DEFAULT, DEFAULT, DEFAULT, DEFAULT) RETURNING "created_at", "updated_at", "tax_exempt", "demerit_points", "demerit_blocked";

-- CustomerRepository.lock
SELECT id FROM customers WHERE id = $1 AND company_id = $2 FOR UPDATE;

-- CustomerRepository.page
SELECT DISTINCT "distinctAlias"."p_id" AS "ids_p_id", "distinctAlias"."p_created_at", "distinctAlias"."p_id" FROM (SELECT "p"."id" AS "p_id", "p"."company_id" AS "p_company_id", "p"."notes" AS "p_notes", "p"."created_at" AS "p_created_at", "p"."updated_at" AS "p_updated_at", "p"."billing_name" AS "p_billing_name", "p"."billing_email" AS "p_billing_email", "p"."tax_exempt" AS "p_tax_exempt", "p"."pricing_profile_id" AS "p_pricing_profile_id", "p"."demerit_points" AS "p_demerit_points", "p"."demerit_blocked" AS "p_demerit_blocked", "u"."id" AS "u_id", "u"."created_at" AS "u_created_at", "u"."updated_at" AS "u_updated_at", "u"."type" AS "u_type", "u"."name" AS "u_name", "u"."email" AS "u_email", "u"."phone" AS "u_phone", "u"."status" AS "u_status", "u"."company_id" AS "u_company_id", "u"."email_verified_at" AS "u_email_verified_at" FROM "customers" "p" INNER JOIN "users" "u" ON "u"."id"="p"."id" WHERE "p"."company_id" = $1) "distinctAlias" ORDER BY "distinctAlias"."p_created_at" DESC, "distinctAlias"."p_id" DESC, "p_id" ASC LIMIT 20 OFFSET 0;

-- CustomerRepository.setDemerit
UPDATE "customers" SET "demerit_points" = $1, "demerit_blocked" = $2, "updated_at" = CURRENT_TIMESTAMP WHERE ("id" = $3 AND "company_id" = $4);

-- CustomerRepository.setStatus
SELECT "Customer"."id" AS "Customer_id", "Customer"."company_id" AS "Customer_company_id", "Customer"."notes" AS "Customer_notes", "Customer"."created_at" AS "Customer_created_at", "Customer"."updated_at" AS "Customer_updated_at", "Customer"."billing_name" AS "Customer_billing_name", "Customer"."billing_email" AS "Customer_billing_email", "Customer"."tax_exempt" AS "Customer_tax_exempt", "Customer"."pricing_profile_id" AS "Customer_pricing_profile_id", "Customer"."demerit_points" AS "Customer_demerit_points", "Customer"."demerit_blocked" AS "Customer_demerit_blocked" FROM "customers" "Customer" WHERE (("Customer"."company_id" = $1) AND ("Customer"."id" = $2)) LIMIT 1 FOR UPDATE;

-- CustomerRepository.update: skipped (the member directory writes (MemberDirectory#update): its statements are those of DriverRepository.update, sampled there)
