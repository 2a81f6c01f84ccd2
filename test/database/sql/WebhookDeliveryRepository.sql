-- WebhookDeliveryRepository: statement snapshots (test/database/sql-snapshots.spec.ts; UPDATE_SQL_SNAPSHOTS=1 rewrites)

-- WebhookDeliveryRepository.find
SELECT "WebhookDelivery"."id" AS "WebhookDelivery_id", "WebhookDelivery"."created_at" AS "WebhookDelivery_created_at", "WebhookDelivery"."updated_at" AS "WebhookDelivery_updated_at", "WebhookDelivery"."company_id" AS "WebhookDelivery_company_id", "WebhookDelivery"."endpoint_id" AS "WebhookDelivery_endpoint_id", "WebhookDelivery"."event_id" AS "WebhookDelivery_event_id", "WebhookDelivery"."event_type" AS "WebhookDelivery_event_type", "WebhookDelivery"."attempt" AS "WebhookDelivery_attempt", "WebhookDelivery"."status_code" AS "WebhookDelivery_status_code", "WebhookDelivery"."duration_ms" AS "WebhookDelivery_duration_ms", "WebhookDelivery"."error" AS "WebhookDelivery_error", "WebhookDelivery"."status" AS "WebhookDelivery_status" FROM "webhook_deliveries" "WebhookDelivery" WHERE (("WebhookDelivery"."company_id" = $1) AND ("WebhookDelivery"."endpoint_id" = $2) AND ("WebhookDelivery"."id" = $3)) LIMIT 1;

-- WebhookDeliveryRepository.insert
INSERT INTO "webhook_deliveries"("id", "created_at", "updated_at", "company_id", "endpoint_id", "event_id", "event_type", "attempt", "status_code", "duration_ms", "error", "status") VALUES (DEFAULT, DEFAULT, DEFAULT, $1, $2, $3, $4, $5, $6, $7, $8, $9) RETURNING "id", "created_at", "updated_at";

-- WebhookDeliveryRepository.page (no filter)
SELECT "d"."id" AS "d_id", "d"."created_at" AS "d_created_at", "d"."updated_at" AS "d_updated_at", "d"."company_id" AS "d_company_id", "d"."endpoint_id" AS "d_endpoint_id", "d"."event_id" AS "d_event_id", "d"."event_type" AS "d_event_type", "d"."attempt" AS "d_attempt", "d"."status_code" AS "d_status_code", "d"."duration_ms" AS "d_duration_ms", "d"."error" AS "d_error", "d"."status" AS "d_status" FROM "webhook_deliveries" "d" WHERE "d"."company_id" = $1 AND "d"."endpoint_id" = $2 ORDER BY "d"."created_at" DESC, "d"."id" DESC LIMIT 20 OFFSET 0;
SELECT count(*)::int AS "n" FROM "webhook_deliveries" "d" WHERE "d"."company_id" = $1 AND "d"."endpoint_id" = $2;

-- WebhookDeliveryRepository.page (by status)
SELECT "d"."id" AS "d_id", "d"."created_at" AS "d_created_at", "d"."updated_at" AS "d_updated_at", "d"."company_id" AS "d_company_id", "d"."endpoint_id" AS "d_endpoint_id", "d"."event_id" AS "d_event_id", "d"."event_type" AS "d_event_type", "d"."attempt" AS "d_attempt", "d"."status_code" AS "d_status_code", "d"."duration_ms" AS "d_duration_ms", "d"."error" AS "d_error", "d"."status" AS "d_status" FROM "webhook_deliveries" "d" WHERE "d"."company_id" = $1 AND "d"."endpoint_id" = $2 AND "d"."status" = $3 ORDER BY "d"."created_at" DESC, "d"."id" DESC LIMIT 20 OFFSET 0;
SELECT count(*)::int AS "n" FROM "webhook_deliveries" "d" WHERE "d"."company_id" = $1 AND "d"."endpoint_id" = $2 AND "d"."status" = $3;

-- WebhookDeliveryRepository.relayedEvent
SELECT id, type, aggregate_type, aggregate_id, company_id, actor_id, payload, created_at FROM outbox_events WHERE id = $1 AND company_id = $2;

-- WebhookDeliveryRepository.state
SELECT bool_or(status = 'succeeded') AS delivered, (array_agg(status ORDER BY attempt DESC, created_at DESC))[1] AS last_status, max(attempt)::int AS last_attempt FROM webhook_deliveries WHERE endpoint_id = $1 AND event_id = $2 AND company_id = $3;
