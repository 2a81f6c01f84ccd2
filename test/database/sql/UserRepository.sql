-- UserRepository: statement snapshots (test/database/sql-snapshots.spec.ts; UPDATE_SQL_SNAPSHOTS=1 rewrites)

-- UserRepository.companyUserIds
SELECT "User"."id" AS "User_id" FROM "users" "User" WHERE (("User"."company_id" = $1) AND ("User"."type" = $2) AND ("User"."status" = $3)) ORDER BY "User"."created_at" ASC;

-- UserRepository.credentialsByEmail
SELECT id, type, password_hash FROM users WHERE lower(email) = lower($1);

-- UserRepository.emailTaken (anyone)
SELECT 1 FROM users WHERE lower(email) = lower($1);

-- UserRepository.emailTaken (another user)
SELECT 1 FROM users WHERE lower(email) = $1 AND id <> $2;

-- UserRepository.exists
SELECT id FROM users WHERE id = $1;

-- UserRepository.existsByEmail
SELECT id FROM users WHERE lower(email) = lower($1);

-- UserRepository.insert (a member)
INSERT INTO "users"("id", "created_at", "updated_at", "type", "name", "email", "phone", "password_hash", "status", "company_id", "email_verified_at") VALUES (DEFAULT, DEFAULT, DEFAULT, $1, $2, $3, $4, $5, $6, $7, DEFAULT) RETURNING "id", "created_at", "updated_at", "status";

-- UserRepository.insert (of no company)
INSERT INTO "users"("id", "created_at", "updated_at", "type", "name", "email", "phone", "password_hash", "status", "company_id", "email_verified_at") VALUES (DEFAULT, DEFAULT, DEFAULT, $1, $2, $3, $4, $5, $6, $7, DEFAULT) RETURNING "id", "created_at", "updated_at", "status";

-- UserRepository.lock
SELECT "User"."id" AS "User_id", "User"."created_at" AS "User_created_at", "User"."updated_at" AS "User_updated_at", "User"."type" AS "User_type", "User"."name" AS "User_name", "User"."email" AS "User_email", "User"."phone" AS "User_phone", "User"."status" AS "User_status", "User"."company_id" AS "User_company_id", "User"."email_verified_at" AS "User_email_verified_at" FROM "users" "User" WHERE (("User"."company_id" = $1) AND ("User"."id" = $2)) LIMIT 1 FOR UPDATE;

-- UserRepository.lockByEmail
SELECT id FROM users WHERE lower(email) = lower($1) FOR UPDATE;

-- UserRepository.lockCompanyOf
SELECT "User"."id" AS "User_id", "User"."company_id" AS "User_company_id" FROM "users" "User" WHERE (("User"."id" = $1)) LIMIT 1 FOR UPDATE;

-- UserRepository.markEmailVerified
UPDATE users SET email_verified_at = coalesce(email_verified_at, now()), updated_at = now() WHERE lower(email) = lower($1);

-- UserRepository.names
SELECT "User"."id" AS "User_id", "User"."name" AS "User_name" FROM "users" "User" WHERE (("User"."company_id" = $1) AND ("User"."id" IN ($2, $3)));

-- UserRepository.passwordHashOf
SELECT password_hash FROM users WHERE id = $1;

-- UserRepository.profile
SELECT u.id, u.type, u.name, u.email, u.status, u.company_id, u.phone AS profile_phone, u.email_verified_at AS profile_email_verified_at, u.created_at AS profile_created_at, NULL::json AS profile_company FROM users u WHERE u.id = $1;

-- UserRepository.setPassword (password only)
UPDATE users SET password_hash = $2, updated_at = now() WHERE id = $1;

-- UserRepository.setPassword (verifies the e-mail)
UPDATE users SET password_hash = $2, email_verified_at = coalesce(email_verified_at, now()), updated_at = now() WHERE id = $1;

-- UserRepository.typeCounts
SELECT type, status, count(*)::int AS total, (count(*) FILTER (WHERE created_at >= $1::date AND created_at < $2::date + 1))::int AS created FROM users GROUP BY type, status ORDER BY type, status;

-- UserRepository.typeCounts (one company)
SELECT type, status, count(*)::int AS total, (count(*) FILTER (WHERE created_at >= $1::date AND created_at < $2::date + 1))::int AS created FROM users WHERE company_id = $3 GROUP BY type, status ORDER BY type, status;

-- UserRepository.update (a member)
UPDATE "users" SET "name" = $1, "updated_at" = CURRENT_TIMESTAMP WHERE ("company_id" = $2 AND "id" = $3);

-- UserRepository.update (own account)
UPDATE "users" SET "name" = $1, "updated_at" = CURRENT_TIMESTAMP WHERE "id" = $2;
