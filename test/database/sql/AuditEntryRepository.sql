-- AuditEntryRepository: statement snapshots (test/database/sql-snapshots.spec.ts; UPDATE_SQL_SNAPSHOTS=1 rewrites)

-- AuditEntryRepository.insert
INSERT INTO "platform_audit_entries"("id", "admin_id", "action", "target_type", "target_id", "company_id", "before", "after", "created_at") VALUES (DEFAULT, $1, $2, $3, $4, $5, $6, $7, DEFAULT) RETURNING "id", "created_at";

-- AuditEntryRepository.latestOf
SELECT "AuditEntry"."id" AS "AuditEntry_id", "AuditEntry"."admin_id" AS "AuditEntry_admin_id", "AuditEntry"."action" AS "AuditEntry_action", "AuditEntry"."target_type" AS "AuditEntry_target_type", "AuditEntry"."target_id" AS "AuditEntry_target_id", "AuditEntry"."company_id" AS "AuditEntry_company_id", "AuditEntry"."before" AS "AuditEntry_before", "AuditEntry"."after" AS "AuditEntry_after", "AuditEntry"."created_at" AS "AuditEntry_created_at" FROM "platform_audit_entries" "AuditEntry" WHERE (("AuditEntry"."company_id" = $1)) ORDER BY "AuditEntry"."created_at" DESC, "AuditEntry"."id" DESC LIMIT 20;
