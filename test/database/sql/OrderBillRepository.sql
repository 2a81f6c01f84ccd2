-- OrderBillRepository: statement snapshots (test/database/sql-snapshots.spec.ts; UPDATE_SQL_SNAPSHOTS=1 rewrites)

-- OrderBillRepository.all
SELECT "OrderLine"."id" AS "OrderLine_id", "OrderLine"."created_at" AS "OrderLine_created_at", "OrderLine"."updated_at" AS "OrderLine_updated_at", "OrderLine"."company_id" AS "OrderLine_company_id", "OrderLine"."order_id" AS "OrderLine_order_id", "OrderLine"."kind" AS "OrderLine_kind", "OrderLine"."source" AS "OrderLine_source", "OrderLine"."change_request_id" AS "OrderLine_change_request_id", "OrderLine"."description" AS "OrderLine_description", "OrderLine"."quantity" AS "OrderLine_quantity", "OrderLine"."unit_amount" AS "OrderLine_unit_amount", "OrderLine"."amount" AS "OrderLine_amount", "OrderLine"."position" AS "OrderLine_position", "OrderLine"."voided_at" AS "OrderLine_voided_at" FROM "order_lines" "OrderLine" WHERE (("OrderLine"."order_id" = $1) AND ("OrderLine"."company_id" = $2)) ORDER BY "OrderLine"."position" ASC;

-- OrderBillRepository.billedExtraDays
SELECT coalesce(sum(quantity), 0)::text AS days FROM order_lines WHERE order_id = $1 AND company_id = $2 AND kind = 'extra_days' AND voided_at IS NULL;

-- OrderBillRepository.history
SELECT "OrderStatusChange"."id" AS "OrderStatusChange_id", "OrderStatusChange"."company_id" AS "OrderStatusChange_company_id", "OrderStatusChange"."order_id" AS "OrderStatusChange_order_id", "OrderStatusChange"."from_status" AS "OrderStatusChange_from_status", "OrderStatusChange"."to_status" AS "OrderStatusChange_to_status", "OrderStatusChange"."actor_id" AS "OrderStatusChange_actor_id", "OrderStatusChange"."actor_type" AS "OrderStatusChange_actor_type", "OrderStatusChange"."reason" AS "OrderStatusChange_reason", "OrderStatusChange"."created_at" AS "OrderStatusChange_created_at" FROM "order_status_history" "OrderStatusChange" WHERE (("OrderStatusChange"."order_id" = $1) AND ("OrderStatusChange"."company_id" = $2)) ORDER BY "OrderStatusChange"."created_at" ASC, "OrderStatusChange"."id" ASC;

-- OrderBillRepository.insertHistory
INSERT INTO "order_status_history"("id", "company_id", "order_id", "from_status", "to_status", "actor_id", "actor_type", "reason", "created_at") VALUES (DEFAULT, $1, $2, $3, $4, $5, $6, $7, DEFAULT) RETURNING "id", "created_at";

-- OrderBillRepository.insertLines
INSERT INTO "order_lines"("id", "created_at", "updated_at", "company_id", "order_id", "kind", "source", "change_request_id", "description", "quantity", "unit_amount", "amount", "position", "voided_at") VALUES (DEFAULT, DEFAULT, DEFAULT, $1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11) RETURNING "id", "created_at", "updated_at";

-- OrderBillRepository.live
SELECT "OrderLine"."id" AS "OrderLine_id", "OrderLine"."created_at" AS "OrderLine_created_at", "OrderLine"."updated_at" AS "OrderLine_updated_at", "OrderLine"."company_id" AS "OrderLine_company_id", "OrderLine"."order_id" AS "OrderLine_order_id", "OrderLine"."kind" AS "OrderLine_kind", "OrderLine"."source" AS "OrderLine_source", "OrderLine"."change_request_id" AS "OrderLine_change_request_id", "OrderLine"."description" AS "OrderLine_description", "OrderLine"."quantity" AS "OrderLine_quantity", "OrderLine"."unit_amount" AS "OrderLine_unit_amount", "OrderLine"."amount" AS "OrderLine_amount", "OrderLine"."position" AS "OrderLine_position", "OrderLine"."voided_at" AS "OrderLine_voided_at" FROM "order_lines" "OrderLine" WHERE (("OrderLine"."order_id" = $1) AND ("OrderLine"."company_id" = $2) AND ("OrderLine"."voided_at" IS NULL)) ORDER BY "OrderLine"."position" ASC;

-- OrderBillRepository.liveAmong
SELECT "OrderLine"."id" AS "OrderLine_id", "OrderLine"."created_at" AS "OrderLine_created_at", "OrderLine"."updated_at" AS "OrderLine_updated_at", "OrderLine"."company_id" AS "OrderLine_company_id", "OrderLine"."order_id" AS "OrderLine_order_id", "OrderLine"."kind" AS "OrderLine_kind", "OrderLine"."source" AS "OrderLine_source", "OrderLine"."change_request_id" AS "OrderLine_change_request_id", "OrderLine"."description" AS "OrderLine_description", "OrderLine"."quantity" AS "OrderLine_quantity", "OrderLine"."unit_amount" AS "OrderLine_unit_amount", "OrderLine"."amount" AS "OrderLine_amount", "OrderLine"."position" AS "OrderLine_position", "OrderLine"."voided_at" AS "OrderLine_voided_at" FROM "order_lines" "OrderLine" WHERE (("OrderLine"."order_id" = $1) AND ("OrderLine"."company_id" = $2) AND ("OrderLine"."id" IN ($3)) AND ("OrderLine"."voided_at" IS NULL)) ORDER BY "OrderLine"."position" ASC;

-- OrderBillRepository.nextPosition
SELECT coalesce(max(position), -1) + 1 AS next FROM order_lines WHERE order_id = $1 AND company_id = $2;

-- OrderBillRepository.ofChangeRequests
SELECT "OrderLine"."id" AS "OrderLine_id", "OrderLine"."created_at" AS "OrderLine_created_at", "OrderLine"."updated_at" AS "OrderLine_updated_at", "OrderLine"."company_id" AS "OrderLine_company_id", "OrderLine"."order_id" AS "OrderLine_order_id", "OrderLine"."kind" AS "OrderLine_kind", "OrderLine"."source" AS "OrderLine_source", "OrderLine"."change_request_id" AS "OrderLine_change_request_id", "OrderLine"."description" AS "OrderLine_description", "OrderLine"."quantity" AS "OrderLine_quantity", "OrderLine"."unit_amount" AS "OrderLine_unit_amount", "OrderLine"."amount" AS "OrderLine_amount", "OrderLine"."position" AS "OrderLine_position", "OrderLine"."voided_at" AS "OrderLine_voided_at" FROM "order_lines" "OrderLine" WHERE (("OrderLine"."change_request_id" IN ($1)) AND ("OrderLine"."company_id" = $2)) ORDER BY "OrderLine"."position" ASC;

-- OrderBillRepository.sums
SELECT coalesce(sum(amount) FILTER (WHERE kind NOT IN ('discount', 'tax')), 0)::bigint::text AS subtotal, coalesce(-sum(amount) FILTER (WHERE kind = 'discount'), 0)::bigint::text AS discount, coalesce(sum(amount) FILTER (WHERE kind = 'tax'), 0)::bigint::text AS tax, coalesce(sum(amount), 0)::bigint::text AS total FROM order_lines WHERE order_id = $1 AND company_id = $2 AND voided_at IS NULL;

-- OrderBillRepository.voidLines
UPDATE "order_lines" SET "voided_at" = $1, "updated_at" = CURRENT_TIMESTAMP WHERE ("order_id" = $2 AND "company_id" = $3 AND "voided_at" IS NULL AND "source" IN ($4));
