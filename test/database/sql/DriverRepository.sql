-- DriverRepository: statement snapshots (test/database/sql-snapshots.spec.ts; UPDATE_SQL_SNAPSHOTS=1 rewrites)

-- DriverRepository.assertOwned
SELECT "ref"."id" AS "id" FROM "drivers" "ref" WHERE "ref"."company_id" = $1 AND "ref"."id" IN ($2) FOR SHARE;

-- DriverRepository.companyOf
SELECT "r"."company_id" AS "company_id" FROM "drivers" "r" WHERE "r"."id" = $1;

-- DriverRepository.count
SELECT COUNT(1) AS "cnt" FROM "drivers" "Driver" WHERE (("Driver"."company_id" = $1));

-- DriverRepository.countsByCompany
SELECT company_id, count(*)::int AS n FROM drivers WHERE company_id = ANY($1) GROUP BY company_id;

-- DriverRepository.find
SELECT DISTINCT "distinctAlias"."Driver_id" AS "ids_Driver_id" FROM (SELECT "Driver"."id" AS "Driver_id", "Driver"."company_id" AS "Driver_company_id", "Driver"."notes" AS "Driver_notes", "Driver"."created_at" AS "Driver_created_at", "Driver"."updated_at" AS "Driver_updated_at", "Driver"."license_number" AS "Driver_license_number", "Driver"."license_expires_on" AS "Driver_license_expires_on", "Driver"."hired_on" AS "Driver_hired_on", "Driver__Driver_user"."id" AS "Driver__Driver_user_id", "Driver__Driver_user"."created_at" AS "Driver__Driver_user_created_at", "Driver__Driver_user"."updated_at" AS "Driver__Driver_user_updated_at", "Driver__Driver_user"."type" AS "Driver__Driver_user_type", "Driver__Driver_user"."name" AS "Driver__Driver_user_name", "Driver__Driver_user"."email" AS "Driver__Driver_user_email", "Driver__Driver_user"."phone" AS "Driver__Driver_user_phone", "Driver__Driver_user"."status" AS "Driver__Driver_user_status", "Driver__Driver_user"."company_id" AS "Driver__Driver_user_company_id", "Driver__Driver_user"."email_verified_at" AS "Driver__Driver_user_email_verified_at" FROM "drivers" "Driver" LEFT JOIN "users" "Driver__Driver_user" ON "Driver__Driver_user"."id"="Driver"."id" WHERE (("Driver"."company_id" = $1) AND ("Driver"."id" = $2))) "distinctAlias" ORDER BY "Driver_id" ASC LIMIT 1;

-- DriverRepository.insert
INSERT INTO "drivers"("id", "company_id", "notes", "created_at", "updated_at", "license_number", "license_expires_on", "hired_on") VALUES ($1, $2, DEFAULT, DEFAULT, DEFAULT, DEFAULT, DEFAULT, DEFAULT) RETURNING "created_at", "updated_at";

-- DriverRepository.list (a company)
SELECT DISTINCT "distinctAlias"."p_id" AS "ids_p_id", "distinctAlias"."p_created_at", "distinctAlias"."p_id" FROM (SELECT "p"."id" AS "p_id", "p"."company_id" AS "p_company_id", "p"."notes" AS "p_notes", "p"."created_at" AS "p_created_at", "p"."updated_at" AS "p_updated_at", "p"."license_number" AS "p_license_number", "p"."license_expires_on" AS "p_license_expires_on", "p"."hired_on" AS "p_hired_on", "u"."id" AS "u_id", "u"."created_at" AS "u_created_at", "u"."updated_at" AS "u_updated_at", "u"."type" AS "u_type", "u"."name" AS "u_name", "u"."email" AS "u_email", "u"."phone" AS "u_phone", "u"."status" AS "u_status", "u"."company_id" AS "u_company_id", "u"."email_verified_at" AS "u_email_verified_at" FROM "drivers" "p" INNER JOIN "users" "u" ON "u"."id"="p"."id" WHERE "p"."company_id" = $1) "distinctAlias" ORDER BY "distinctAlias"."p_created_at" DESC, "distinctAlias"."p_id" DESC, "p_id" ASC LIMIT 20 OFFSET 0;

-- DriverRepository.list (with filters)
SELECT DISTINCT "distinctAlias"."p_id" AS "ids_p_id", "distinctAlias"."u_name", "distinctAlias"."p_id" FROM (SELECT "p"."id" AS "p_id", "p"."company_id" AS "p_company_id", "p"."notes" AS "p_notes", "p"."created_at" AS "p_created_at", "p"."updated_at" AS "p_updated_at", "p"."license_number" AS "p_license_number", "p"."license_expires_on" AS "p_license_expires_on", "p"."hired_on" AS "p_hired_on", "u"."id" AS "u_id", "u"."created_at" AS "u_created_at", "u"."updated_at" AS "u_updated_at", "u"."type" AS "u_type", "u"."name" AS "u_name", "u"."email" AS "u_email", "u"."phone" AS "u_phone", "u"."status" AS "u_status", "u"."company_id" AS "u_company_id", "u"."email_verified_at" AS "u_email_verified_at" FROM "drivers" "p" INNER JOIN "users" "u" ON "u"."id"="p"."id" WHERE "p"."company_id" = $1 AND ("u"."name" ILIKE $2 OR "u"."email" ILIKE $2 OR "u"."phone" ILIKE $2) AND "u"."status" = $3) "distinctAlias" ORDER BY "distinctAlias"."u_name" ASC, "distinctAlias"."p_id" ASC, "p_id" ASC LIMIT 20 OFFSET 0;

-- DriverRepository.lock
SELECT "Driver"."id" AS "Driver_id", "Driver"."company_id" AS "Driver_company_id", "Driver"."notes" AS "Driver_notes", "Driver"."created_at" AS "Driver_created_at", "Driver"."updated_at" AS "Driver_updated_at", "Driver"."license_number" AS "Driver_license_number", "Driver"."license_expires_on" AS "Driver_license_expires_on", "Driver"."hired_on" AS "Driver_hired_on" FROM "drivers" "Driver" WHERE (("Driver"."company_id" = $1) AND ("Driver"."id" = $2)) LIMIT 1 FOR UPDATE;

-- DriverRepository.roster (all)
SELECT "p"."id" AS id, "u"."name" AS name, "u"."email" AS email, "u"."phone" AS phone, "u"."status" AS status FROM "drivers" "p" INNER JOIN "users" "u" ON "u"."id"="p"."id" WHERE "p"."company_id" = $1 ORDER BY "u"."name" ASC, "p"."id" ASC;

-- DriverRepository.roster (active only)
SELECT "p"."id" AS id, "u"."name" AS name, "u"."email" AS email, "u"."phone" AS phone, "u"."status" AS status FROM "drivers" "p" INNER JOIN "users" "u" ON "u"."id"="p"."id" WHERE "p"."company_id" = $1 AND "u"."status" = 'active' ORDER BY "u"."name" ASC, "p"."id" ASC;

-- DriverRepository.setStatus
SELECT "Driver"."id" AS "Driver_id", "Driver"."company_id" AS "Driver_company_id", "Driver"."notes" AS "Driver_notes", "Driver"."created_at" AS "Driver_created_at", "Driver"."updated_at" AS "Driver_updated_at", "Driver"."license_number" AS "Driver_license_number", "Driver"."license_expires_on" AS "Driver_license_expires_on", "Driver"."hired_on" AS "Driver_hired_on" FROM "drivers" "Driver" WHERE (("Driver"."company_id" = $1) AND ("Driver"."id" = $2)) LIMIT 1 FOR UPDATE;

-- DriverRepository.statuses
SELECT "p"."id" AS "id", "u"."status" AS "status" FROM "drivers" "p" INNER JOIN "users" "u" ON "u"."id"="p"."id" WHERE "p"."company_id" = $1 AND "p"."id" IN ($2, $3) FOR SHARE OF p;

-- DriverRepository.update
SELECT "User"."id" AS "User_id", "User"."created_at" AS "User_created_at", "User"."updated_at" AS "User_updated_at", "User"."type" AS "User_type", "User"."name" AS "User_name", "User"."email" AS "User_email", "User"."phone" AS "User_phone", "User"."status" AS "User_status", "User"."company_id" AS "User_company_id", "User"."email_verified_at" AS "User_email_verified_at" FROM "users" "User" WHERE (("User"."company_id" = $1) AND ("User"."id" = $2)) LIMIT 1 FOR UPDATE;
