-- ChatRepository: statement snapshots (test/database/sql-snapshots.spec.ts; UPDATE_SQL_SNAPSHOTS=1 rewrites)

-- ChatRepository.deleteMessage
UPDATE "chat_messages" SET "body" = $1, "attachment_media_ids" = $2, "deleted_at" = now(), "updated_at" = CURRENT_TIMESTAMP WHERE ("id" = $3 AND "company_id" = $4);

-- ChatRepository.editMessage
UPDATE "chat_messages" SET "body" = $1, "attachment_media_ids" = $2, "edited_at" = now(), "updated_at" = CURRENT_TIMESTAMP WHERE ("id" = $3 AND "company_id" = $4);

-- ChatRepository.findWithExtras
SELECT "c"."id" AS "c_id", "c"."created_at" AS "c_created_at", "c"."updated_at" AS "c_updated_at", "c"."company_id" AS "c_company_id", "c"."order_id" AS "c_order_id", "c"."customer_id" AS "c_customer_id", "c"."order_number" AS "c_order_number", "c"."created_by" AS "c_created_by", "c"."last_activity_at" AS "c_last_activity_at", (SELECT json_build_object('id', lm.id, 'chat_id', lm.chat_id, 'author_user_id', lm.author_user_id, 'author_type', lm.author_type, 'body', lm.body, 'attachment_media_ids', lm.attachment_media_ids, 'edited_at', lm.edited_at, 'deleted_at', lm.deleted_at, 'created_at', lm.created_at, 'updated_at', lm.updated_at) FROM chat_messages lm WHERE lm.chat_id = "c"."id" ORDER BY lm.created_at DESC, lm.id DESC LIMIT 1) AS "last_message", (SELECT count(*)::int FROM chat_messages um WHERE um.chat_id = "c"."id" AND um.deleted_at IS NULL AND um.author_user_id <> $1 AND um.created_at > coalesce((SELECT cr.last_read_at FROM chat_reads cr WHERE cr.chat_id = "c"."id" AND cr.user_id = $1), '-infinity'::timestamptz)) AS "unread_count" FROM "chats" "c" WHERE "c"."company_id" = $2 AND "c"."id" = $3;

-- ChatRepository.hasMessage
SELECT 1 AS one FROM chat_messages WHERE id = $1 AND chat_id = $2 AND company_id = $3;

-- ChatRepository.heldElsewhere
SELECT x.id::text AS id FROM unnest($1::uuid[]) AS x(id) WHERE EXISTS (SELECT 1 FROM chat_messages cm WHERE cm.attachment_media_ids @> ARRAY[x.id] AND cm.company_id <> $2);

-- ChatRepository.insertIfNone
INSERT INTO "chats"("id", "created_at", "updated_at", "company_id", "order_id", "customer_id", "order_number", "created_by", "last_activity_at") VALUES (DEFAULT, DEFAULT, DEFAULT, $1, $2, $3, $4, $5, DEFAULT) ON CONFLICT DO NOTHING RETURNING "id", "created_at", "updated_at", "last_activity_at";

-- ChatRepository.insertMessage
INSERT INTO "chat_messages"("id", "created_at", "updated_at", "company_id", "chat_id", "author_user_id", "author_type", "body", "attachment_media_ids", "edited_at", "deleted_at") VALUES (DEFAULT, clock_timestamp(), DEFAULT, $1, $2, $3, $4, $5, $6, DEFAULT, DEFAULT) RETURNING "id", "created_at", "updated_at", "attachment_media_ids";

-- ChatRepository.lockMessage
SELECT "ChatMessage"."id" AS "ChatMessage_id", "ChatMessage"."created_at" AS "ChatMessage_created_at", "ChatMessage"."updated_at" AS "ChatMessage_updated_at", "ChatMessage"."company_id" AS "ChatMessage_company_id", "ChatMessage"."chat_id" AS "ChatMessage_chat_id", "ChatMessage"."author_user_id" AS "ChatMessage_author_user_id", "ChatMessage"."author_type" AS "ChatMessage_author_type", "ChatMessage"."body" AS "ChatMessage_body", "ChatMessage"."attachment_media_ids" AS "ChatMessage_attachment_media_ids", "ChatMessage"."edited_at" AS "ChatMessage_edited_at", "ChatMessage"."deleted_at" AS "ChatMessage_deleted_at" FROM "chat_messages" "ChatMessage" WHERE (("ChatMessage"."company_id" = $1) AND ("ChatMessage"."deleted_at" IS NULL) AND ("ChatMessage"."id" = $2)) LIMIT 1 FOR UPDATE;

-- ChatRepository.markRead
INSERT INTO chat_reads (company_id, chat_id, user_id, last_read_at) SELECT $1, $2, $3, max(created_at) FROM chat_messages WHERE chat_id = $2 AND company_id = $1 HAVING max(created_at) IS NOT NULL ON CONFLICT (chat_id, user_id) DO UPDATE SET last_read_at = greatest(chat_reads.last_read_at, EXCLUDED.last_read_at), updated_at = now();

-- ChatRepository.message
SELECT cm.id, cm.chat_id, cm.author_user_id, cm.author_type, cm.body, cm.attachment_media_ids::text[] AS attachment_media_ids, cm.edited_at, cm.deleted_at, cm.created_at, cm.updated_at FROM chat_messages cm WHERE cm.id = $1 AND cm.company_id = $2;

-- ChatRepository.messages
SELECT cm.id, cm.chat_id, cm.author_user_id, cm.author_type, cm.body, cm.attachment_media_ids::text[] AS attachment_media_ids, cm.edited_at, cm.deleted_at, cm.created_at, cm.updated_at FROM chat_messages cm WHERE cm.chat_id = $1 AND cm.company_id = $3 ORDER BY cm.created_at DESC, cm.id DESC LIMIT $2;

-- ChatRepository.messages (before a message)
SELECT cm.id, cm.chat_id, cm.author_user_id, cm.author_type, cm.body, cm.attachment_media_ids::text[] AS attachment_media_ids, cm.edited_at, cm.deleted_at, cm.created_at, cm.updated_at FROM chat_messages cm WHERE cm.chat_id = $1 AND cm.company_id = $3 AND (cm.created_at, cm.id) < (SELECT b.created_at, b.id FROM chat_messages b WHERE b.id = $4) ORDER BY cm.created_at DESC, cm.id DESC LIMIT $2;

-- ChatRepository.ofOrder
SELECT "c"."id" AS "c_id", "c"."created_at" AS "c_created_at", "c"."updated_at" AS "c_updated_at", "c"."company_id" AS "c_company_id", "c"."order_id" AS "c_order_id", "c"."customer_id" AS "c_customer_id", "c"."order_number" AS "c_order_number", "c"."created_by" AS "c_created_by", "c"."last_activity_at" AS "c_last_activity_at" FROM "chats" "c" WHERE "c"."company_id" = $1 AND "c"."order_id" = $2;

-- ChatRepository.page
SELECT "c"."id" AS "c_id", "c"."created_at" AS "c_created_at", "c"."updated_at" AS "c_updated_at", "c"."company_id" AS "c_company_id", "c"."order_id" AS "c_order_id", "c"."customer_id" AS "c_customer_id", "c"."order_number" AS "c_order_number", "c"."created_by" AS "c_created_by", "c"."last_activity_at" AS "c_last_activity_at", (SELECT json_build_object('id', lm.id, 'chat_id', lm.chat_id, 'author_user_id', lm.author_user_id, 'author_type', lm.author_type, 'body', lm.body, 'attachment_media_ids', lm.attachment_media_ids, 'edited_at', lm.edited_at, 'deleted_at', lm.deleted_at, 'created_at', lm.created_at, 'updated_at', lm.updated_at) FROM chat_messages lm WHERE lm.chat_id = "c"."id" ORDER BY lm.created_at DESC, lm.id DESC LIMIT 1) AS "last_message", (SELECT count(*)::int FROM chat_messages um WHERE um.chat_id = "c"."id" AND um.deleted_at IS NULL AND um.author_user_id <> $1 AND um.created_at > coalesce((SELECT cr.last_read_at FROM chat_reads cr WHERE cr.chat_id = "c"."id" AND cr.user_id = $1), '-infinity'::timestamptz)) AS "unread_count" FROM "chats" "c" WHERE "c"."company_id" = $2 ORDER BY "c"."last_activity_at" DESC, "c"."id" DESC LIMIT 20 OFFSET 0;
SELECT count(*)::int AS "n" FROM "chats" "c" WHERE "c"."company_id" = $1;

-- ChatRepository.reach
SELECT "c"."id" AS "c_id", "c"."created_at" AS "c_created_at", "c"."updated_at" AS "c_updated_at", "c"."company_id" AS "c_company_id", "c"."order_id" AS "c_order_id", "c"."customer_id" AS "c_customer_id", "c"."order_number" AS "c_order_number", "c"."created_by" AS "c_created_by", "c"."last_activity_at" AS "c_last_activity_at" FROM "chats" "c" WHERE "c"."company_id" = $1 AND "c"."id" = $2;

-- ChatRepository.reach (locked)
SELECT "c"."id" AS "c_id", "c"."created_at" AS "c_created_at", "c"."updated_at" AS "c_updated_at", "c"."company_id" AS "c_company_id", "c"."order_id" AS "c_order_id", "c"."customer_id" AS "c_customer_id", "c"."order_number" AS "c_order_number", "c"."created_by" AS "c_created_by", "c"."last_activity_at" AS "c_last_activity_at" FROM "chats" "c" WHERE "c"."company_id" = $1 AND "c"."id" = $2 FOR UPDATE;

-- ChatRepository.touch
UPDATE "chats" SET "last_activity_at" = clock_timestamp(), "updated_at" = CURRENT_TIMESTAMP WHERE ("id" = $1 AND "company_id" = $2);
