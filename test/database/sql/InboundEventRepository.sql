-- InboundEventRepository: statement snapshots (test/database/sql-snapshots.spec.ts; UPDATE_SQL_SNAPSHOTS=1 rewrites)

-- InboundEventRepository.claim
INSERT INTO webhook_inbound_events (provider, event_id, type, payload, outcome) VALUES ($1, $2, $3, $4, 'ignored') ON CONFLICT (provider, event_id) DO NOTHING RETURNING id;

-- InboundEventRepository.find
SELECT "WebhookInboundEvent"."id" AS "WebhookInboundEvent_id", "WebhookInboundEvent"."created_at" AS "WebhookInboundEvent_created_at", "WebhookInboundEvent"."updated_at" AS "WebhookInboundEvent_updated_at", "WebhookInboundEvent"."provider" AS "WebhookInboundEvent_provider", "WebhookInboundEvent"."event_id" AS "WebhookInboundEvent_event_id", "WebhookInboundEvent"."type" AS "WebhookInboundEvent_type", "WebhookInboundEvent"."payload" AS "WebhookInboundEvent_payload", "WebhookInboundEvent"."outcome" AS "WebhookInboundEvent_outcome", "WebhookInboundEvent"."reason" AS "WebhookInboundEvent_reason" FROM "webhook_inbound_events" "WebhookInboundEvent" WHERE (("WebhookInboundEvent"."provider" = $1) AND ("WebhookInboundEvent"."event_id" = $2)) LIMIT 1;

-- InboundEventRepository.setOutcome
UPDATE "webhook_inbound_events" SET "outcome" = $1, "reason" = $2, "updated_at" = CURRENT_TIMESTAMP WHERE "id" = $3;
