-- LedgerRepository: statement snapshots (test/database/sql-snapshots.spec.ts; UPDATE_SQL_SNAPSHOTS=1 rewrites)

-- LedgerRepository.batch
SELECT "PaymentTransaction"."id" AS "PaymentTransaction_id", "PaymentTransaction"."created_at" AS "PaymentTransaction_created_at", "PaymentTransaction"."updated_at" AS "PaymentTransaction_updated_at", "PaymentTransaction"."company_id" AS "PaymentTransaction_company_id", "PaymentTransaction"."customer_id" AS "PaymentTransaction_customer_id", "PaymentTransaction"."order_id" AS "PaymentTransaction_order_id", "PaymentTransaction"."wallet_id" AS "PaymentTransaction_wallet_id", "PaymentTransaction"."instrument_id" AS "PaymentTransaction_instrument_id", "PaymentTransaction"."related_transaction_id" AS "PaymentTransaction_related_transaction_id", "PaymentTransaction"."batch_id" AS "PaymentTransaction_batch_id", "PaymentTransaction"."kind" AS "PaymentTransaction_kind", "PaymentTransaction"."status" AS "PaymentTransaction_status", "PaymentTransaction"."method" AS "PaymentTransaction_method", "PaymentTransaction"."amount" AS "PaymentTransaction_amount", "PaymentTransaction"."currency" AS "PaymentTransaction_currency", "PaymentTransaction"."provider_ref" AS "PaymentTransaction_provider_ref", "PaymentTransaction"."failure_code" AS "PaymentTransaction_failure_code", "PaymentTransaction"."offline_reference" AS "PaymentTransaction_offline_reference", "PaymentTransaction"."idempotency_key" AS "PaymentTransaction_idempotency_key", "PaymentTransaction"."description" AS "PaymentTransaction_description", "PaymentTransaction"."created_by" AS "PaymentTransaction_created_by", "PaymentTransaction"."next_check_at" AS "PaymentTransaction_next_check_at", "PaymentTransaction"."check_attempts" AS "PaymentTransaction_check_attempts" FROM "payment_transactions" "PaymentTransaction" WHERE (("PaymentTransaction"."batch_id" = $1) AND ("PaymentTransaction"."company_id" = $2)) ORDER BY "PaymentTransaction"."created_at" ASC, "PaymentTransaction"."id" ASC;

-- LedgerRepository.byKey
SELECT "PaymentTransaction"."id" AS "PaymentTransaction_id", "PaymentTransaction"."created_at" AS "PaymentTransaction_created_at", "PaymentTransaction"."updated_at" AS "PaymentTransaction_updated_at", "PaymentTransaction"."company_id" AS "PaymentTransaction_company_id", "PaymentTransaction"."customer_id" AS "PaymentTransaction_customer_id", "PaymentTransaction"."order_id" AS "PaymentTransaction_order_id", "PaymentTransaction"."wallet_id" AS "PaymentTransaction_wallet_id", "PaymentTransaction"."instrument_id" AS "PaymentTransaction_instrument_id", "PaymentTransaction"."related_transaction_id" AS "PaymentTransaction_related_transaction_id", "PaymentTransaction"."batch_id" AS "PaymentTransaction_batch_id", "PaymentTransaction"."kind" AS "PaymentTransaction_kind", "PaymentTransaction"."status" AS "PaymentTransaction_status", "PaymentTransaction"."method" AS "PaymentTransaction_method", "PaymentTransaction"."amount" AS "PaymentTransaction_amount", "PaymentTransaction"."currency" AS "PaymentTransaction_currency", "PaymentTransaction"."provider_ref" AS "PaymentTransaction_provider_ref", "PaymentTransaction"."failure_code" AS "PaymentTransaction_failure_code", "PaymentTransaction"."offline_reference" AS "PaymentTransaction_offline_reference", "PaymentTransaction"."idempotency_key" AS "PaymentTransaction_idempotency_key", "PaymentTransaction"."description" AS "PaymentTransaction_description", "PaymentTransaction"."created_by" AS "PaymentTransaction_created_by", "PaymentTransaction"."next_check_at" AS "PaymentTransaction_next_check_at", "PaymentTransaction"."check_attempts" AS "PaymentTransaction_check_attempts" FROM "payment_transactions" "PaymentTransaction" WHERE (("PaymentTransaction"."company_id" = $1) AND ("PaymentTransaction"."idempotency_key" = $2)) LIMIT 1;

-- LedgerRepository.claimablePendingCharge
SELECT t.id, t.company_id, t.order_id, t.batch_id, t.idempotency_key, t.provider_ref, t.created_at, t.check_attempts, b.provider_ref AS buyer_ref FROM payment_transactions t LEFT JOIN payment_instruments i ON i.id = t.instrument_id LEFT JOIN payment_buyers b ON b.id = i.buyer_id WHERE t.status = 'pending' AND t.kind = 'charge' AND t.next_check_at <= $1 AND (t.batch_id IS NULL OR t.batch_id = t.id) ORDER BY t.next_check_at, t.id LIMIT 1 FOR UPDATE OF t SKIP LOCKED;

-- LedgerRepository.claimablePendingRefund (due)
SELECT id, company_id FROM payment_transactions WHERE kind = 'refund' AND status = 'pending' AND next_check_at <= $1 ORDER BY next_check_at, id LIMIT 1 FOR UPDATE SKIP LOCKED;

-- LedgerRepository.claimablePendingRefund (these ids)
SELECT id, company_id FROM payment_transactions WHERE kind = 'refund' AND status = 'pending' AND id = ANY($1::uuid[]) ORDER BY next_check_at, id LIMIT 1 FOR UPDATE SKIP LOCKED;

-- LedgerRepository.deferPendingRefund
UPDATE payment_transactions SET next_check_at = $2 WHERE id = $1 AND company_id = $3 AND status = 'pending';

-- LedgerRepository.disputeRecorded
SELECT 1 AS "row_exists" FROM (SELECT 1 AS dummy_column) "dummy_table" WHERE EXISTS (SELECT 1 FROM "payment_transactions" "PaymentTransaction" WHERE (("PaymentTransaction"."company_id" = $1) AND ("PaymentTransaction"."idempotency_key" LIKE $2))) LIMIT 1;

-- LedgerRepository.find
SELECT "PaymentTransaction"."id" AS "PaymentTransaction_id", "PaymentTransaction"."created_at" AS "PaymentTransaction_created_at", "PaymentTransaction"."updated_at" AS "PaymentTransaction_updated_at", "PaymentTransaction"."company_id" AS "PaymentTransaction_company_id", "PaymentTransaction"."customer_id" AS "PaymentTransaction_customer_id", "PaymentTransaction"."order_id" AS "PaymentTransaction_order_id", "PaymentTransaction"."wallet_id" AS "PaymentTransaction_wallet_id", "PaymentTransaction"."instrument_id" AS "PaymentTransaction_instrument_id", "PaymentTransaction"."related_transaction_id" AS "PaymentTransaction_related_transaction_id", "PaymentTransaction"."batch_id" AS "PaymentTransaction_batch_id", "PaymentTransaction"."kind" AS "PaymentTransaction_kind", "PaymentTransaction"."status" AS "PaymentTransaction_status", "PaymentTransaction"."method" AS "PaymentTransaction_method", "PaymentTransaction"."amount" AS "PaymentTransaction_amount", "PaymentTransaction"."currency" AS "PaymentTransaction_currency", "PaymentTransaction"."provider_ref" AS "PaymentTransaction_provider_ref", "PaymentTransaction"."failure_code" AS "PaymentTransaction_failure_code", "PaymentTransaction"."offline_reference" AS "PaymentTransaction_offline_reference", "PaymentTransaction"."idempotency_key" AS "PaymentTransaction_idempotency_key", "PaymentTransaction"."description" AS "PaymentTransaction_description", "PaymentTransaction"."created_by" AS "PaymentTransaction_created_by", "PaymentTransaction"."next_check_at" AS "PaymentTransaction_next_check_at", "PaymentTransaction"."check_attempts" AS "PaymentTransaction_check_attempts" FROM "payment_transactions" "PaymentTransaction" WHERE (("PaymentTransaction"."company_id" = $1) AND ("PaymentTransaction"."id" = $2)) LIMIT 1;

-- LedgerRepository.hasPendingCharge
SELECT 1 AS "row_exists" FROM (SELECT 1 AS dummy_column) "dummy_table" WHERE EXISTS (SELECT 1 FROM "payment_transactions" "PaymentTransaction" WHERE (("PaymentTransaction"."order_id" IN ($1, $2)) AND ("PaymentTransaction"."company_id" = $3) AND ("PaymentTransaction"."kind" = $4) AND ("PaymentTransaction"."status" = $5))) LIMIT 1;

-- LedgerRepository.heldBy
SELECT coalesce(sum(amount), 0)::text AS held FROM payment_transactions WHERE order_id = $1 AND company_id = $2 AND kind = 'charge' AND status = 'pending';

-- LedgerRepository.insert
INSERT INTO "payment_transactions"("id", "created_at", "updated_at", "company_id", "customer_id", "order_id", "wallet_id", "instrument_id", "related_transaction_id", "batch_id", "kind", "status", "method", "amount", "currency", "provider_ref", "failure_code", "offline_reference", "idempotency_key", "description", "created_by", "next_check_at", "check_attempts") VALUES (DEFAULT, DEFAULT, DEFAULT, $1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13, $14, $15, $16, $17, $18, $19, $20) RETURNING "id", "created_at", "updated_at", "check_attempts";

-- LedgerRepository.lockIfPending
SELECT "t"."id" AS "t_id", "t"."created_at" AS "t_created_at", "t"."updated_at" AS "t_updated_at", "t"."company_id" AS "t_company_id", "t"."customer_id" AS "t_customer_id", "t"."order_id" AS "t_order_id", "t"."wallet_id" AS "t_wallet_id", "t"."instrument_id" AS "t_instrument_id", "t"."related_transaction_id" AS "t_related_transaction_id", "t"."batch_id" AS "t_batch_id", "t"."kind" AS "t_kind", "t"."status" AS "t_status", "t"."method" AS "t_method", "t"."amount" AS "t_amount", "t"."currency" AS "t_currency", "t"."provider_ref" AS "t_provider_ref", "t"."failure_code" AS "t_failure_code", "t"."offline_reference" AS "t_offline_reference", "t"."idempotency_key" AS "t_idempotency_key", "t"."description" AS "t_description", "t"."created_by" AS "t_created_by", "t"."next_check_at" AS "t_next_check_at", "t"."check_attempts" AS "t_check_attempts" FROM "payment_transactions" "t" WHERE "t"."id" = $1 AND "t"."company_id" = $2 AND "t"."status" = 'pending' FOR UPDATE;

-- LedgerRepository.lockPending
SELECT "t"."id" AS "t_id", "t"."created_at" AS "t_created_at", "t"."updated_at" AS "t_updated_at", "t"."company_id" AS "t_company_id", "t"."customer_id" AS "t_customer_id", "t"."order_id" AS "t_order_id", "t"."wallet_id" AS "t_wallet_id", "t"."instrument_id" AS "t_instrument_id", "t"."related_transaction_id" AS "t_related_transaction_id", "t"."batch_id" AS "t_batch_id", "t"."kind" AS "t_kind", "t"."status" AS "t_status", "t"."method" AS "t_method", "t"."amount" AS "t_amount", "t"."currency" AS "t_currency", "t"."provider_ref" AS "t_provider_ref", "t"."failure_code" AS "t_failure_code", "t"."offline_reference" AS "t_offline_reference", "t"."idempotency_key" AS "t_idempotency_key", "t"."description" AS "t_description", "t"."created_by" AS "t_created_by", "t"."next_check_at" AS "t_next_check_at", "t"."check_attempts" AS "t_check_attempts" FROM "payment_transactions" "t" WHERE "t"."id" IN ($1, $2) AND "t"."company_id" = $3 AND "t"."status" = 'pending' ORDER BY "t"."id" ASC FOR UPDATE;

-- LedgerRepository.lockSucceededRefunds
SELECT "t"."id" AS "t_id", "t"."created_at" AS "t_created_at", "t"."updated_at" AS "t_updated_at", "t"."company_id" AS "t_company_id", "t"."customer_id" AS "t_customer_id", "t"."order_id" AS "t_order_id", "t"."wallet_id" AS "t_wallet_id", "t"."instrument_id" AS "t_instrument_id", "t"."related_transaction_id" AS "t_related_transaction_id", "t"."batch_id" AS "t_batch_id", "t"."kind" AS "t_kind", "t"."status" AS "t_status", "t"."method" AS "t_method", "t"."amount" AS "t_amount", "t"."currency" AS "t_currency", "t"."provider_ref" AS "t_provider_ref", "t"."failure_code" AS "t_failure_code", "t"."offline_reference" AS "t_offline_reference", "t"."idempotency_key" AS "t_idempotency_key", "t"."description" AS "t_description", "t"."created_by" AS "t_created_by", "t"."next_check_at" AS "t_next_check_at", "t"."check_attempts" AS "t_check_attempts" FROM "payment_transactions" "t" WHERE "t"."provider_ref" = $1 AND "t"."kind" = 'refund' AND "t"."status" = 'succeeded' ORDER BY "t"."id" ASC FOR UPDATE;

-- LedgerRepository.page (no filter)
SELECT "t"."id" AS "t_id", "t"."created_at" AS "t_created_at", "t"."updated_at" AS "t_updated_at", "t"."company_id" AS "t_company_id", "t"."customer_id" AS "t_customer_id", "t"."order_id" AS "t_order_id", "t"."wallet_id" AS "t_wallet_id", "t"."instrument_id" AS "t_instrument_id", "t"."related_transaction_id" AS "t_related_transaction_id", "t"."batch_id" AS "t_batch_id", "t"."kind" AS "t_kind", "t"."status" AS "t_status", "t"."method" AS "t_method", "t"."amount" AS "t_amount", "t"."currency" AS "t_currency", "t"."provider_ref" AS "t_provider_ref", "t"."failure_code" AS "t_failure_code", "t"."offline_reference" AS "t_offline_reference", "t"."idempotency_key" AS "t_idempotency_key", "t"."description" AS "t_description", "t"."created_by" AS "t_created_by", "t"."next_check_at" AS "t_next_check_at", "t"."check_attempts" AS "t_check_attempts" FROM "payment_transactions" "t" WHERE "t"."company_id" = $1 ORDER BY "t"."created_at" DESC, "t"."id" DESC LIMIT 20 OFFSET 0;

-- LedgerRepository.page (with filters)
SELECT "t"."id" AS "t_id", "t"."created_at" AS "t_created_at", "t"."updated_at" AS "t_updated_at", "t"."company_id" AS "t_company_id", "t"."customer_id" AS "t_customer_id", "t"."order_id" AS "t_order_id", "t"."wallet_id" AS "t_wallet_id", "t"."instrument_id" AS "t_instrument_id", "t"."related_transaction_id" AS "t_related_transaction_id", "t"."batch_id" AS "t_batch_id", "t"."kind" AS "t_kind", "t"."status" AS "t_status", "t"."method" AS "t_method", "t"."amount" AS "t_amount", "t"."currency" AS "t_currency", "t"."provider_ref" AS "t_provider_ref", "t"."failure_code" AS "t_failure_code", "t"."offline_reference" AS "t_offline_reference", "t"."idempotency_key" AS "t_idempotency_key", "t"."description" AS "t_description", "t"."created_by" AS "t_created_by", "t"."next_check_at" AS "t_next_check_at", "t"."check_attempts" AS "t_check_attempts" FROM "payment_transactions" "t" WHERE "t"."company_id" = $1 AND "t"."kind" IN ($2, $3, $4) AND "t"."order_id" IS NOT NULL AND "t"."kind" = $5 AND "t"."status" = $6 AND "t"."order_id" = $7 AND "t"."method" = $8 AND "t"."customer_id" = $9 ORDER BY "t"."amount" ASC, "t"."id" ASC LIMIT 20 OFFSET 0;

-- LedgerRepository.paidOf
SELECT coalesce(sum(CASE WHEN kind IN ('charge', 'offline_payment', 'wallet_debit') THEN amount WHEN kind IN ('refund', 'wallet_credit') THEN -amount ELSE 0 END), 0)::bigint::text AS paid FROM payment_transactions WHERE order_id = $1 AND company_id = $2 AND status = 'succeeded';

-- LedgerRepository.pendingChargesByReference (reference)
SELECT id, company_id, order_id, batch_id FROM payment_transactions WHERE kind = 'charge' AND status = 'pending' AND (provider_ref = $1 OR ($2::text IS NOT NULL AND idempotency_key = $2));

-- LedgerRepository.pendingChargesByReference (reference or key)
SELECT id, company_id, order_id, batch_id FROM payment_transactions WHERE kind = 'charge' AND status = 'pending' AND (provider_ref = $1 OR ($2::text IS NOT NULL AND idempotency_key = $2));

-- LedgerRepository.pendingChargesOfBatch (single)
SELECT id, company_id, order_id FROM payment_transactions WHERE company_id = $3 AND status = 'pending' AND kind = 'charge' AND (id = $1 OR ($2::uuid IS NOT NULL AND batch_id = $2));

-- LedgerRepository.pendingChargesOfBatch (batch)
SELECT id, company_id, order_id FROM payment_transactions WHERE company_id = $3 AND status = 'pending' AND kind = 'charge' AND (id = $1 OR ($2::uuid IS NOT NULL AND batch_id = $2));

-- LedgerRepository.pendingChargesWithBatches
SELECT id, company_id, order_id, batch_id FROM payment_transactions WHERE kind = 'charge' AND status = 'pending' AND (id = ANY($1::uuid[]) OR batch_id = ANY($2::uuid[]));

-- LedgerRepository.pendingRefundsOf
SELECT coalesce(sum(amount), 0)::text AS pending FROM payment_transactions WHERE order_id = $1 AND company_id = $2 AND kind = 'refund' AND status = 'pending';

-- LedgerRepository.pendingSince
SELECT count(*)::int AS n FROM payment_transactions WHERE status = 'pending' AND kind IN ('charge', 'refund') AND created_at < $1;

-- LedgerRepository.pushBack
UPDATE payment_transactions SET check_attempts = check_attempts + 1, next_check_at = $2 WHERE id = $1 AND company_id = $3;

-- LedgerRepository.recordEvents: skipped (common's outbox insert (recordEvents), snapshotted with common)

-- LedgerRepository.refundRecorded
SELECT 1 AS "row_exists" FROM (SELECT 1 AS dummy_column) "dummy_table" WHERE EXISTS (SELECT 1 FROM "payment_transactions" "PaymentTransaction" WHERE (("PaymentTransaction"."company_id" = $1) AND ("PaymentTransaction"."idempotency_key" LIKE $2))) LIMIT 1;

-- LedgerRepository.setPendingReference
UPDATE payment_transactions SET provider_ref = coalesce(provider_ref, $2), updated_at = now() WHERE id = ANY($1::uuid[]) AND company_id = $3 AND status = 'pending';

-- LedgerRepository.succeededChargeOrders
SELECT "PaymentTransaction"."id" AS "PaymentTransaction_id", "PaymentTransaction"."company_id" AS "PaymentTransaction_company_id", "PaymentTransaction"."order_id" AS "PaymentTransaction_order_id" FROM "payment_transactions" "PaymentTransaction" WHERE (("PaymentTransaction"."provider_ref" = $1) AND ("PaymentTransaction"."kind" = $2) AND ("PaymentTransaction"."status" = $3));

-- LedgerRepository.succeededCharges (by order)
SELECT c.id, c.company_id, c.customer_id, c.order_id, c.amount, c.currency, c.provider_ref, c.instrument_id, (SELECT coalesce(sum(r.amount), 0) FROM payment_transactions r WHERE r.related_transaction_id = c.id AND r.kind = 'refund' AND r.status IN ('succeeded', 'pending'))::text AS refunded FROM payment_transactions c WHERE c.order_id = $1 AND c.company_id = $2 AND c.kind = 'charge' AND c.status = 'succeeded' ORDER BY c.created_at DESC, c.id DESC;

-- LedgerRepository.succeededCharges (by provider reference)
SELECT c.id, c.company_id, c.customer_id, c.order_id, c.amount, c.currency, c.provider_ref, c.instrument_id, (SELECT coalesce(sum(r.amount), 0) FROM payment_transactions r WHERE r.related_transaction_id = c.id AND r.kind = 'refund' AND r.status IN ('succeeded', 'pending'))::text AS refunded FROM payment_transactions c WHERE c.provider_ref = $1 AND c.company_id = $2 AND c.kind = 'charge' AND c.status = 'succeeded' ORDER BY c.created_at DESC, c.id DESC;

-- LedgerRepository.succeededRefunds
SELECT "PaymentTransaction"."id" AS "PaymentTransaction_id", "PaymentTransaction"."created_at" AS "PaymentTransaction_created_at", "PaymentTransaction"."updated_at" AS "PaymentTransaction_updated_at", "PaymentTransaction"."company_id" AS "PaymentTransaction_company_id", "PaymentTransaction"."customer_id" AS "PaymentTransaction_customer_id", "PaymentTransaction"."order_id" AS "PaymentTransaction_order_id", "PaymentTransaction"."wallet_id" AS "PaymentTransaction_wallet_id", "PaymentTransaction"."instrument_id" AS "PaymentTransaction_instrument_id", "PaymentTransaction"."related_transaction_id" AS "PaymentTransaction_related_transaction_id", "PaymentTransaction"."batch_id" AS "PaymentTransaction_batch_id", "PaymentTransaction"."kind" AS "PaymentTransaction_kind", "PaymentTransaction"."status" AS "PaymentTransaction_status", "PaymentTransaction"."method" AS "PaymentTransaction_method", "PaymentTransaction"."amount" AS "PaymentTransaction_amount", "PaymentTransaction"."currency" AS "PaymentTransaction_currency", "PaymentTransaction"."provider_ref" AS "PaymentTransaction_provider_ref", "PaymentTransaction"."failure_code" AS "PaymentTransaction_failure_code", "PaymentTransaction"."offline_reference" AS "PaymentTransaction_offline_reference", "PaymentTransaction"."idempotency_key" AS "PaymentTransaction_idempotency_key", "PaymentTransaction"."description" AS "PaymentTransaction_description", "PaymentTransaction"."created_by" AS "PaymentTransaction_created_by", "PaymentTransaction"."next_check_at" AS "PaymentTransaction_next_check_at", "PaymentTransaction"."check_attempts" AS "PaymentTransaction_check_attempts" FROM "payment_transactions" "PaymentTransaction" WHERE (("PaymentTransaction"."provider_ref" = $1) AND ("PaymentTransaction"."kind" = $2) AND ("PaymentTransaction"."status" = $3)) ORDER BY "PaymentTransaction"."id" ASC;

-- LedgerRepository.update
UPDATE "payment_transactions" SET "status" = $1, "failure_code" = $2, "next_check_at" = $3, "updated_at" = CURRENT_TIMESTAMP WHERE ("id" = $4 AND "company_id" = $5);
