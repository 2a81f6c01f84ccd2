-- WebhookEndpointRepository: statement snapshots (test/database/sql-snapshots.spec.ts; UPDATE_SQL_SNAPSHOTS=1 rewrites)

-- WebhookEndpointRepository.find
SELECT "WebhookEndpoint"."id" AS "WebhookEndpoint_id", "WebhookEndpoint"."created_at" AS "WebhookEndpoint_created_at", "WebhookEndpoint"."updated_at" AS "WebhookEndpoint_updated_at", "WebhookEndpoint"."company_id" AS "WebhookEndpoint_company_id", "WebhookEndpoint"."url" AS "WebhookEndpoint_url", "WebhookEndpoint"."events" AS "WebhookEndpoint_events", "WebhookEndpoint"."secret" AS "WebhookEndpoint_secret", "WebhookEndpoint"."created_by" AS "WebhookEndpoint_created_by", "WebhookEndpoint"."previous_secret" AS "WebhookEndpoint_previous_secret", "WebhookEndpoint"."previous_secret_expires_at" AS "WebhookEndpoint_previous_secret_expires_at", "WebhookEndpoint"."disabled_at" AS "WebhookEndpoint_disabled_at", "WebhookEndpoint"."deleted_at" AS "WebhookEndpoint_deleted_at" FROM "webhook_endpoints" "WebhookEndpoint" WHERE ( (("WebhookEndpoint"."company_id" = $1) AND ("WebhookEndpoint"."id" = $2)) ) AND ( "WebhookEndpoint"."deleted_at" IS NULL ) LIMIT 1;

-- WebhookEndpointRepository.insert
INSERT INTO "webhook_endpoints"("id", "created_at", "updated_at", "company_id", "url", "events", "secret", "created_by", "previous_secret", "previous_secret_expires_at", "disabled_at", "deleted_at") VALUES (DEFAULT, DEFAULT, DEFAULT, $1, $2, $3, $4, $5, $6, $7, $8, DEFAULT) RETURNING "id", "created_at", "updated_at", "deleted_at";

-- WebhookEndpointRepository.page
SELECT "e"."id" AS "e_id", "e"."created_at" AS "e_created_at", "e"."updated_at" AS "e_updated_at", "e"."company_id" AS "e_company_id", "e"."url" AS "e_url", "e"."events" AS "e_events", "e"."secret" AS "e_secret", "e"."created_by" AS "e_created_by", "e"."previous_secret" AS "e_previous_secret", "e"."previous_secret_expires_at" AS "e_previous_secret_expires_at", "e"."disabled_at" AS "e_disabled_at", "e"."deleted_at" AS "e_deleted_at" FROM "webhook_endpoints" "e" WHERE ( "e"."company_id" = $1 ) AND ( "e"."deleted_at" IS NULL ) ORDER BY "e"."created_at" DESC, "e"."id" DESC LIMIT 20 OFFSET 0;
SELECT count(*)::int AS "n" FROM "webhook_endpoints" "e" WHERE ( "e"."company_id" = $1 ) AND ( "e"."deleted_at" IS NULL );

-- WebhookEndpointRepository.softDelete
UPDATE "webhook_endpoints" SET "deleted_at" = CURRENT_TIMESTAMP, "updated_at" = CURRENT_TIMESTAMP WHERE ("id" = $1 AND "company_id" = $2) AND "deleted_at" IS NULL;

-- WebhookEndpointRepository.toSend
SELECT e.id, e.url, e.secret, e.previous_secret, e.previous_secret_expires_at FROM webhook_endpoints e WHERE e.company_id = $1 AND $2 = ANY (e.events) AND e.disabled_at IS NULL AND e.deleted_at IS NULL AND NOT EXISTS (SELECT 1 FROM webhook_deliveries d WHERE d.endpoint_id = e.id AND d.event_id = $3 AND d.status <> 'failed') ORDER BY e.created_at, e.id;

-- WebhookEndpointRepository.update
UPDATE "webhook_endpoints" SET "url" = $1, "updated_at" = CURRENT_TIMESTAMP WHERE ("id" = $2 AND "company_id" = $3);
