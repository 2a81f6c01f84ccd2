-- ContactMessageRepository: statement snapshots (test/database/sql-snapshots.spec.ts; UPDATE_SQL_SNAPSHOTS=1 rewrites)

-- ContactMessageRepository.find
SELECT "ContactMessage"."id" AS "ContactMessage_id", "ContactMessage"."created_at" AS "ContactMessage_created_at", "ContactMessage"."updated_at" AS "ContactMessage_updated_at", "ContactMessage"."user_id" AS "ContactMessage_user_id", "ContactMessage"."subject" AS "ContactMessage_subject", "ContactMessage"."message" AS "ContactMessage_message" FROM "contact_messages" "ContactMessage" WHERE (("ContactMessage"."id" = $1)) LIMIT 1;

-- ContactMessageRepository.insert
INSERT INTO "contact_messages"("id", "created_at", "updated_at", "user_id", "subject", "message") VALUES (DEFAULT, DEFAULT, DEFAULT, $1, $2, $3) RETURNING "id", "created_at", "updated_at";
