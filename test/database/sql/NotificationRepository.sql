-- NotificationRepository: statement snapshots (test/database/sql-snapshots.spec.ts; UPDATE_SQL_SNAPSHOTS=1 rewrites)

-- NotificationRepository.delete
DELETE FROM "notifications" WHERE ("id" = $1 AND "company_id" = $2);

-- NotificationRepository.insertNew
INSERT INTO "notifications"("id", "created_at", "updated_at", "company_id", "user_id", "event_id", "type", "title", "body", "data", "read_at") VALUES (DEFAULT, DEFAULT, DEFAULT, $1, $2, $3, $4, $5, $6, $7, DEFAULT) ON CONFLICT DO NOTHING RETURNING *;

-- NotificationRepository.lock
SELECT "Notification"."id" AS "Notification_id", "Notification"."created_at" AS "Notification_created_at", "Notification"."updated_at" AS "Notification_updated_at", "Notification"."company_id" AS "Notification_company_id", "Notification"."user_id" AS "Notification_user_id", "Notification"."event_id" AS "Notification_event_id", "Notification"."type" AS "Notification_type", "Notification"."title" AS "Notification_title", "Notification"."body" AS "Notification_body", "Notification"."data" AS "Notification_data", "Notification"."read_at" AS "Notification_read_at" FROM "notifications" "Notification" WHERE (("Notification"."company_id" = $1) AND ("Notification"."user_id" = $2) AND ("Notification"."id" = $3)) LIMIT 1 FOR UPDATE;

-- NotificationRepository.markAllRead
UPDATE "notifications" SET "read_at" = now(), "updated_at" = CURRENT_TIMESTAMP WHERE "id" IN (SELECT "n"."id" AS "id" FROM "notifications" "n" WHERE "n"."company_id" = $1 AND "n"."user_id" = $2 AND "n"."read_at" IS NULL);

-- NotificationRepository.markRead
UPDATE "notifications" SET "read_at" = $1, "updated_at" = CURRENT_TIMESTAMP WHERE ("id" = $2 AND "company_id" = $3);

-- NotificationRepository.page
SELECT "n"."id" AS "n_id", "n"."created_at" AS "n_created_at", "n"."updated_at" AS "n_updated_at", "n"."company_id" AS "n_company_id", "n"."user_id" AS "n_user_id", "n"."event_id" AS "n_event_id", "n"."type" AS "n_type", "n"."title" AS "n_title", "n"."body" AS "n_body", "n"."data" AS "n_data", "n"."read_at" AS "n_read_at" FROM "notifications" "n" WHERE "n"."company_id" = $1 AND "n"."user_id" = $2 ORDER BY "n"."created_at" DESC, "n"."id" DESC LIMIT 20 OFFSET 0;
SELECT count(*)::int AS "n" FROM "notifications" "n" WHERE "n"."company_id" = $1 AND "n"."user_id" = $2;

-- NotificationRepository.page (unread)
SELECT "n"."id" AS "n_id", "n"."created_at" AS "n_created_at", "n"."updated_at" AS "n_updated_at", "n"."company_id" AS "n_company_id", "n"."user_id" AS "n_user_id", "n"."event_id" AS "n_event_id", "n"."type" AS "n_type", "n"."title" AS "n_title", "n"."body" AS "n_body", "n"."data" AS "n_data", "n"."read_at" AS "n_read_at" FROM "notifications" "n" WHERE "n"."company_id" = $1 AND "n"."user_id" = $2 AND "n"."read_at" IS NULL ORDER BY "n"."created_at" DESC, "n"."id" DESC LIMIT 20 OFFSET 0;
SELECT count(*)::int AS "n" FROM "notifications" "n" WHERE "n"."company_id" = $1 AND "n"."user_id" = $2 AND "n"."read_at" IS NULL;

-- NotificationRepository.unreadCount
SELECT count(*)::int AS "n" FROM "notifications" "n" WHERE "n"."company_id" = $1 AND "n"."user_id" = $2 AND "n"."read_at" IS NULL;
