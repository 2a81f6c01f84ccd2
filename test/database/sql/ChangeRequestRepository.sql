-- ChangeRequestRepository: statement snapshots (test/database/sql-snapshots.spec.ts; UPDATE_SQL_SNAPSHOTS=1 rewrites)

-- ChangeRequestRepository.countsByStatus
SELECT "r"."status" AS "status", count(*)::int AS "n" FROM "order_change_requests" "r" WHERE "r"."company_id" = $1 GROUP BY "r"."status";

-- ChangeRequestRepository.countsOfOrder
SELECT status, count(*)::int AS n FROM order_change_requests WHERE order_id = $1 AND company_id = $2 GROUP BY status;

-- ChangeRequestRepository.find
SELECT "OrderChangeRequest"."id" AS "OrderChangeRequest_id", "OrderChangeRequest"."created_at" AS "OrderChangeRequest_created_at", "OrderChangeRequest"."updated_at" AS "OrderChangeRequest_updated_at", "OrderChangeRequest"."company_id" AS "OrderChangeRequest_company_id", "OrderChangeRequest"."order_id" AS "OrderChangeRequest_order_id", "OrderChangeRequest"."customer_id" AS "OrderChangeRequest_customer_id", "OrderChangeRequest"."type" AS "OrderChangeRequest_type", "OrderChangeRequest"."status" AS "OrderChangeRequest_status", "OrderChangeRequest"."details" AS "OrderChangeRequest_details", "OrderChangeRequest"."note" AS "OrderChangeRequest_note", "OrderChangeRequest"."rejection_reason" AS "OrderChangeRequest_rejection_reason", "OrderChangeRequest"."decided_by" AS "OrderChangeRequest_decided_by", "OrderChangeRequest"."decided_at" AS "OrderChangeRequest_decided_at" FROM "order_change_requests" "OrderChangeRequest" WHERE (("OrderChangeRequest"."company_id" = $1) AND ("OrderChangeRequest"."id" = $2)) LIMIT 1;

-- ChangeRequestRepository.insert: skipped (saves a new entity: an INSERT of every column (no sample row))

-- ChangeRequestRepository.lockOfCompany
SELECT "OrderChangeRequest"."id" AS "OrderChangeRequest_id", "OrderChangeRequest"."created_at" AS "OrderChangeRequest_created_at", "OrderChangeRequest"."updated_at" AS "OrderChangeRequest_updated_at", "OrderChangeRequest"."company_id" AS "OrderChangeRequest_company_id", "OrderChangeRequest"."order_id" AS "OrderChangeRequest_order_id", "OrderChangeRequest"."customer_id" AS "OrderChangeRequest_customer_id", "OrderChangeRequest"."type" AS "OrderChangeRequest_type", "OrderChangeRequest"."status" AS "OrderChangeRequest_status", "OrderChangeRequest"."details" AS "OrderChangeRequest_details", "OrderChangeRequest"."note" AS "OrderChangeRequest_note", "OrderChangeRequest"."rejection_reason" AS "OrderChangeRequest_rejection_reason", "OrderChangeRequest"."decided_by" AS "OrderChangeRequest_decided_by", "OrderChangeRequest"."decided_at" AS "OrderChangeRequest_decided_at" FROM "order_change_requests" "OrderChangeRequest" WHERE (("OrderChangeRequest"."id" = $1) AND ("OrderChangeRequest"."company_id" = $2)) LIMIT 1 FOR UPDATE;

-- ChangeRequestRepository.page
SELECT "r"."id" AS "r_id", "r"."created_at" AS "r_created_at", "r"."updated_at" AS "r_updated_at", "r"."company_id" AS "r_company_id", "r"."order_id" AS "r_order_id", "r"."customer_id" AS "r_customer_id", "r"."type" AS "r_type", "r"."status" AS "r_status", "r"."details" AS "r_details", "r"."note" AS "r_note", "r"."rejection_reason" AS "r_rejection_reason", "r"."decided_by" AS "r_decided_by", "r"."decided_at" AS "r_decided_at" FROM "order_change_requests" "r" WHERE "r"."company_id" = $1 AND "r"."status" = $2 AND ("r"."note" ILIKE $3 OR "r"."rejection_reason" ILIKE $3 OR EXISTS (SELECT 1 FROM users_matching($3) m WHERE m.id = "r"."customer_id") OR EXISTS (SELECT 1 FROM orders o WHERE o.id = "r"."order_id" AND o.number = $4)) ORDER BY "r"."created_at" DESC, "r"."id" DESC LIMIT 20 OFFSET 0;

-- ChangeRequestRepository.pendingOf
SELECT id FROM order_change_requests WHERE order_id = $1 AND company_id = $2 AND status = 'pending' LIMIT 1;

-- ChangeRequestRepository.update
UPDATE "order_change_requests" SET "status" = $1, "updated_at" = CURRENT_TIMESTAMP WHERE ("id" = $2 AND "company_id" = $3);
