-- CompanyDocumentRepository: statement snapshots (test/database/sql-snapshots.spec.ts; UPDATE_SQL_SNAPSHOTS=1 rewrites)

-- CompanyDocumentRepository.delete
DELETE FROM "company_documents" WHERE ("id" = $1 AND "company_id" = $2);

-- CompanyDocumentRepository.lock
SELECT "CompanyDocument"."id" AS "CompanyDocument_id", "CompanyDocument"."created_at" AS "CompanyDocument_created_at", "CompanyDocument"."updated_at" AS "CompanyDocument_updated_at", "CompanyDocument"."company_id" AS "CompanyDocument_company_id", "CompanyDocument"."name" AS "CompanyDocument_name", "CompanyDocument"."type" AS "CompanyDocument_type", "CompanyDocument"."url" AS "CompanyDocument_url", "CompanyDocument"."expires_on" AS "CompanyDocument_expires_on" FROM "company_documents" "CompanyDocument" WHERE (("CompanyDocument"."company_id" = $1) AND ("CompanyDocument"."id" = $2)) LIMIT 1 FOR UPDATE;

-- CompanyDocumentRepository.page
SELECT "d"."id" AS "d_id", "d"."created_at" AS "d_created_at", "d"."updated_at" AS "d_updated_at", "d"."company_id" AS "d_company_id", "d"."name" AS "d_name", "d"."type" AS "d_type", "d"."url" AS "d_url", "d"."expires_on" AS "d_expires_on" FROM "company_documents" "d" WHERE "d"."company_id" = $1 ORDER BY "d"."name" ASC, "d"."id" ASC LIMIT 20 OFFSET 0;

-- CompanyDocumentRepository.replace
DELETE FROM "company_documents" WHERE "company_id" = $1;
INSERT INTO "company_documents"("id", "created_at", "updated_at", "company_id", "name", "type", "url", "expires_on") VALUES (DEFAULT, DEFAULT, DEFAULT, $1, $2, $3, $4, $5) RETURNING "id", "created_at", "updated_at";
