-- SubscriptionRepository: statement snapshots (test/database/sql-snapshots.spec.ts; UPDATE_SQL_SNAPSHOTS=1 rewrites)

-- SubscriptionRepository.claimNextDue
SELECT id, company_id FROM subscriptions WHERE state IN ('trialing', 'active', 'past_due') AND next_action_at <= $1 AND NOT (id = ANY($2::uuid[])) ORDER BY next_action_at, id LIMIT 1 FOR UPDATE SKIP LOCKED;

-- SubscriptionRepository.companyOf
SELECT company_id FROM subscriptions WHERE id = $1;

-- SubscriptionRepository.countCheck
UPDATE subscription_charges SET check_attempts = check_attempts + 1, next_check_at = $2 WHERE id = $1 AND company_id = $3;

-- SubscriptionRepository.create
INSERT INTO "subscriptions"("id", "created_at", "updated_at", "company_id", "plan_id", "state", "is_trial", "amount", "currency", "current_period_start", "current_period_end", "cancel_at_period_end", "cancelled_at", "charge_reference", "created_by", "buyer_reference", "instrument_reference", "period_number", "renewal_attempts", "grace_ends_at", "last_failure_code", "next_action_at") VALUES (DEFAULT, DEFAULT, DEFAULT, $1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, DEFAULT, DEFAULT, DEFAULT, DEFAULT, DEFAULT, DEFAULT, $13) RETURNING "id", "created_at", "updated_at", "is_trial", "cancel_at_period_end", "period_number", "renewal_attempts";

-- SubscriptionRepository.delete
DELETE FROM "subscriptions" WHERE ("id" = $1 AND "company_id" = $2);

-- SubscriptionRepository.findById
SELECT "Subscription"."id" AS "Subscription_id", "Subscription"."created_at" AS "Subscription_created_at", "Subscription"."updated_at" AS "Subscription_updated_at", "Subscription"."company_id" AS "Subscription_company_id", "Subscription"."plan_id" AS "Subscription_plan_id", "Subscription"."state" AS "Subscription_state", "Subscription"."is_trial" AS "Subscription_is_trial", "Subscription"."amount" AS "Subscription_amount", "Subscription"."currency" AS "Subscription_currency", "Subscription"."current_period_start" AS "Subscription_current_period_start", "Subscription"."current_period_end" AS "Subscription_current_period_end", "Subscription"."cancel_at_period_end" AS "Subscription_cancel_at_period_end", "Subscription"."cancelled_at" AS "Subscription_cancelled_at", "Subscription"."charge_reference" AS "Subscription_charge_reference", "Subscription"."created_by" AS "Subscription_created_by", "Subscription"."buyer_reference" AS "Subscription_buyer_reference", "Subscription"."instrument_reference" AS "Subscription_instrument_reference", "Subscription"."period_number" AS "Subscription_period_number", "Subscription"."renewal_attempts" AS "Subscription_renewal_attempts", "Subscription"."grace_ends_at" AS "Subscription_grace_ends_at", "Subscription"."last_failure_code" AS "Subscription_last_failure_code", "Subscription"."next_action_at" AS "Subscription_next_action_at" FROM "subscriptions" "Subscription" WHERE (("Subscription"."id" = $1) AND ("Subscription"."company_id" = $2)) LIMIT 1;

-- SubscriptionRepository.hadTrial
SELECT 1 AS "row_exists" FROM (SELECT 1 AS dummy_column) "dummy_table" WHERE EXISTS (SELECT 1 FROM "subscriptions" "Subscription" WHERE (("Subscription"."company_id" = $1) AND ("Subscription"."is_trial" = $2))) LIMIT 1;

-- SubscriptionRepository.hasPending
SELECT 1 AS "row_exists" FROM (SELECT 1 AS dummy_column) "dummy_table" WHERE EXISTS (SELECT 1 FROM "subscriptions" "Subscription" WHERE (("Subscription"."company_id" = $1) AND ("Subscription"."state" = $2))) LIMIT 1;

-- SubscriptionRepository.insertCharge
INSERT INTO "subscription_charges"("id", "created_at", "updated_at", "company_id", "subscription_id", "period_number", "attempt", "amount", "currency", "status", "provider_reference", "failure_code", "idempotency_key", "next_check_at", "check_attempts") VALUES (DEFAULT, DEFAULT, DEFAULT, $1, $2, $3, $4, $5, $6, $7, $8, $9, $10, DEFAULT, DEFAULT) RETURNING "id", "created_at", "updated_at", "check_attempts";

-- SubscriptionRepository.keepPendingReference
UPDATE subscription_charges SET provider_reference = coalesce(provider_reference, $2), updated_at = now() WHERE idempotency_key = $1 AND company_id = $3 AND status = 'pending';

-- SubscriptionRepository.live
SELECT "Subscription"."id" AS "Subscription_id", "Subscription"."created_at" AS "Subscription_created_at", "Subscription"."updated_at" AS "Subscription_updated_at", "Subscription"."company_id" AS "Subscription_company_id", "Subscription"."plan_id" AS "Subscription_plan_id", "Subscription"."state" AS "Subscription_state", "Subscription"."is_trial" AS "Subscription_is_trial", "Subscription"."amount" AS "Subscription_amount", "Subscription"."currency" AS "Subscription_currency", "Subscription"."current_period_start" AS "Subscription_current_period_start", "Subscription"."current_period_end" AS "Subscription_current_period_end", "Subscription"."cancel_at_period_end" AS "Subscription_cancel_at_period_end", "Subscription"."cancelled_at" AS "Subscription_cancelled_at", "Subscription"."charge_reference" AS "Subscription_charge_reference", "Subscription"."created_by" AS "Subscription_created_by", "Subscription"."buyer_reference" AS "Subscription_buyer_reference", "Subscription"."instrument_reference" AS "Subscription_instrument_reference", "Subscription"."period_number" AS "Subscription_period_number", "Subscription"."renewal_attempts" AS "Subscription_renewal_attempts", "Subscription"."grace_ends_at" AS "Subscription_grace_ends_at", "Subscription"."last_failure_code" AS "Subscription_last_failure_code", "Subscription"."next_action_at" AS "Subscription_next_action_at" FROM "subscriptions" "Subscription" WHERE (("Subscription"."company_id" = $1) AND ("Subscription"."state" IN ($2, $3, $4))) LIMIT 1;

-- SubscriptionRepository.livePlansOf
SELECT s.company_id, p.code AS plan, s.state FROM subscriptions s JOIN plans p ON p.id = s.plan_id WHERE s.company_id = ANY($1) AND s.state IN ('trialing', 'active', 'past_due') AND ($2::uuid IS NULL OR s.company_id = $2::uuid) AND ($3::date IS NULL OR s.created_at >= ($3::date)::timestamp AT TIME ZONE 'UTC') AND ($4::date IS NULL OR s.created_at < ($4::date + 1)::timestamp AT TIME ZONE 'UTC');

-- SubscriptionRepository.lockById
SELECT "s"."id" AS "s_id", "s"."created_at" AS "s_created_at", "s"."updated_at" AS "s_updated_at", "s"."company_id" AS "s_company_id", "s"."plan_id" AS "s_plan_id", "s"."state" AS "s_state", "s"."is_trial" AS "s_is_trial", "s"."amount" AS "s_amount", "s"."currency" AS "s_currency", "s"."current_period_start" AS "s_current_period_start", "s"."current_period_end" AS "s_current_period_end", "s"."cancel_at_period_end" AS "s_cancel_at_period_end", "s"."cancelled_at" AS "s_cancelled_at", "s"."charge_reference" AS "s_charge_reference", "s"."created_by" AS "s_created_by", "s"."buyer_reference" AS "s_buyer_reference", "s"."instrument_reference" AS "s_instrument_reference", "s"."period_number" AS "s_period_number", "s"."renewal_attempts" AS "s_renewal_attempts", "s"."grace_ends_at" AS "s_grace_ends_at", "s"."last_failure_code" AS "s_last_failure_code", "s"."next_action_at" AS "s_next_action_at" FROM "subscriptions" "s" WHERE "s"."id" = $1 AND "s"."company_id" = $2 FOR UPDATE;

-- SubscriptionRepository.lockCompany
SELECT pg_advisory_xact_lock(hashtext($1));

-- SubscriptionRepository.lockNextPendingCheck
SELECT c.id, c.company_id, c.subscription_id, c.idempotency_key, c.provider_reference AS provider_ref, c.created_at, c.check_attempts, s.buyer_reference AS buyer_ref FROM subscription_charges c JOIN subscriptions s ON s.id = c.subscription_id WHERE c.status = 'pending' AND c.next_check_at <= $1 ORDER BY c.next_check_at, c.id LIMIT 1 FOR UPDATE OF c SKIP LOCKED;

-- SubscriptionRepository.lockScoped
SELECT "Subscription"."id" AS "Subscription_id", "Subscription"."created_at" AS "Subscription_created_at", "Subscription"."updated_at" AS "Subscription_updated_at", "Subscription"."company_id" AS "Subscription_company_id", "Subscription"."plan_id" AS "Subscription_plan_id", "Subscription"."state" AS "Subscription_state", "Subscription"."is_trial" AS "Subscription_is_trial", "Subscription"."amount" AS "Subscription_amount", "Subscription"."currency" AS "Subscription_currency", "Subscription"."current_period_start" AS "Subscription_current_period_start", "Subscription"."current_period_end" AS "Subscription_current_period_end", "Subscription"."cancel_at_period_end" AS "Subscription_cancel_at_period_end", "Subscription"."cancelled_at" AS "Subscription_cancelled_at", "Subscription"."charge_reference" AS "Subscription_charge_reference", "Subscription"."created_by" AS "Subscription_created_by", "Subscription"."buyer_reference" AS "Subscription_buyer_reference", "Subscription"."instrument_reference" AS "Subscription_instrument_reference", "Subscription"."period_number" AS "Subscription_period_number", "Subscription"."renewal_attempts" AS "Subscription_renewal_attempts", "Subscription"."grace_ends_at" AS "Subscription_grace_ends_at", "Subscription"."last_failure_code" AS "Subscription_last_failure_code", "Subscription"."next_action_at" AS "Subscription_next_action_at" FROM "subscriptions" "Subscription" WHERE (("Subscription"."company_id" = $1) AND ("Subscription"."id" = $2)) LIMIT 1 FOR UPDATE;

-- SubscriptionRepository.pendingChargeSubscriptions
SELECT subscription_id FROM subscription_charges WHERE status = 'pending' AND (provider_reference = $1 OR ($2::text IS NOT NULL AND idempotency_key = $2));

-- SubscriptionRepository.pendingChargesBefore
SELECT count(*)::int AS n FROM subscription_charges WHERE status = 'pending' AND created_at < $1;

-- SubscriptionRepository.planByCode
SELECT "Plan"."id" AS "Plan_id", "Plan"."created_at" AS "Plan_created_at", "Plan"."updated_at" AS "Plan_updated_at", "Plan"."code" AS "Plan_code", "Plan"."name" AS "Plan_name", "Plan"."price" AS "Plan_price", "Plan"."currency" AS "Plan_currency", "Plan"."trial_days" AS "Plan_trial_days", "Plan"."max_drivers" AS "Plan_max_drivers", "Plan"."max_assets" AS "Plan_max_assets", "Plan"."max_monthly_orders" AS "Plan_max_monthly_orders", "Plan"."position" AS "Plan_position" FROM "plans" "Plan" WHERE (("Plan"."code" = $1)) LIMIT 1;

-- SubscriptionRepository.planById
SELECT "Plan"."id" AS "Plan_id", "Plan"."created_at" AS "Plan_created_at", "Plan"."updated_at" AS "Plan_updated_at", "Plan"."code" AS "Plan_code", "Plan"."name" AS "Plan_name", "Plan"."price" AS "Plan_price", "Plan"."currency" AS "Plan_currency", "Plan"."trial_days" AS "Plan_trial_days", "Plan"."max_drivers" AS "Plan_max_drivers", "Plan"."max_assets" AS "Plan_max_assets", "Plan"."max_monthly_orders" AS "Plan_max_monthly_orders", "Plan"."position" AS "Plan_position" FROM "plans" "Plan" WHERE (("Plan"."id" = $1)) LIMIT 1;

-- SubscriptionRepository.planExists
SELECT 1 AS "row_exists" FROM (SELECT 1 AS dummy_column) "dummy_table" WHERE EXISTS (SELECT 1 FROM "plans" "Plan" WHERE (("Plan"."code" = $1))) LIMIT 1;

-- SubscriptionRepository.planStates (every company)
SELECT p.code AS plan, s.state, count(*)::int AS n FROM subscriptions s JOIN plans p ON p.id = s.plan_id WHERE ($1::uuid IS NULL OR s.company_id = $1::uuid) AND ($2::date IS NULL OR s.created_at >= ($2::date)::timestamp AT TIME ZONE 'UTC') AND ($3::date IS NULL OR s.created_at < ($3::date + 1)::timestamp AT TIME ZONE 'UTC') GROUP BY p.code, s.state ORDER BY p.code, s.state;

-- SubscriptionRepository.planStates (one company, a range)
SELECT p.code AS plan, s.state, count(*)::int AS n FROM subscriptions s JOIN plans p ON p.id = s.plan_id WHERE ($1::uuid IS NULL OR s.company_id = $1::uuid) AND ($2::date IS NULL OR s.created_at >= ($2::date)::timestamp AT TIME ZONE 'UTC') AND ($3::date IS NULL OR s.created_at < ($3::date + 1)::timestamp AT TIME ZONE 'UTC') GROUP BY p.code, s.state ORDER BY p.code, s.state;

-- SubscriptionRepository.plans
SELECT "Plan"."id" AS "Plan_id", "Plan"."created_at" AS "Plan_created_at", "Plan"."updated_at" AS "Plan_updated_at", "Plan"."code" AS "Plan_code", "Plan"."name" AS "Plan_name", "Plan"."price" AS "Plan_price", "Plan"."currency" AS "Plan_currency", "Plan"."trial_days" AS "Plan_trial_days", "Plan"."max_drivers" AS "Plan_max_drivers", "Plan"."max_assets" AS "Plan_max_assets", "Plan"."max_monthly_orders" AS "Plan_max_monthly_orders", "Plan"."position" AS "Plan_position" FROM "plans" "Plan" ORDER BY "Plan"."position" ASC;

-- SubscriptionRepository.plansInForce
SELECT "p"."id" AS "p_id", "p"."created_at" AS "p_created_at", "p"."updated_at" AS "p_updated_at", "p"."code" AS "p_code", "p"."name" AS "p_name", "p"."price" AS "p_price", "p"."currency" AS "p_currency", "p"."trial_days" AS "p_trial_days", "p"."max_drivers" AS "p_max_drivers", "p"."max_assets" AS "p_max_assets", "p"."max_monthly_orders" AS "p_max_monthly_orders", "p"."position" AS "p_position", "s"."id" AS s_id, "s"."state" AS s_state, "s"."current_period_end" AS s_end, "s"."cancel_at_period_end" AS s_cancel, "s"."grace_ends_at" AS s_grace, "p"."code" = companies_plan_override($1) AS "p_forced" FROM "plans" "p" LEFT JOIN "subscriptions" "s" ON "s"."plan_id" = "p"."id" AND "s"."company_id" = $1 AND "s"."state" IN ('trialing', 'active', 'past_due') WHERE ("p"."code" = $2 OR "s"."id" IS NOT NULL OR "p"."code" = companies_plan_override($1));

-- SubscriptionRepository.save
SELECT "Subscription"."id" AS "Subscription_id", "Subscription"."created_at" AS "Subscription_created_at", "Subscription"."updated_at" AS "Subscription_updated_at", "Subscription"."company_id" AS "Subscription_company_id", "Subscription"."plan_id" AS "Subscription_plan_id", "Subscription"."state" AS "Subscription_state", "Subscription"."is_trial" AS "Subscription_is_trial", "Subscription"."amount" AS "Subscription_amount", "Subscription"."currency" AS "Subscription_currency", "Subscription"."current_period_start" AS "Subscription_current_period_start", "Subscription"."current_period_end" AS "Subscription_current_period_end", "Subscription"."cancel_at_period_end" AS "Subscription_cancel_at_period_end", "Subscription"."cancelled_at" AS "Subscription_cancelled_at", "Subscription"."charge_reference" AS "Subscription_charge_reference", "Subscription"."created_by" AS "Subscription_created_by", "Subscription"."buyer_reference" AS "Subscription_buyer_reference", "Subscription"."instrument_reference" AS "Subscription_instrument_reference", "Subscription"."period_number" AS "Subscription_period_number", "Subscription"."renewal_attempts" AS "Subscription_renewal_attempts", "Subscription"."grace_ends_at" AS "Subscription_grace_ends_at", "Subscription"."last_failure_code" AS "Subscription_last_failure_code", "Subscription"."next_action_at" AS "Subscription_next_action_at" FROM "subscriptions" "Subscription" WHERE "Subscription"."id" = $1;
INSERT INTO "subscriptions"("id", "created_at", "updated_at", "company_id", "plan_id", "state", "is_trial", "amount", "currency", "current_period_start", "current_period_end", "cancel_at_period_end", "cancelled_at", "charge_reference", "created_by", "buyer_reference", "instrument_reference", "period_number", "renewal_attempts", "grace_ends_at", "last_failure_code", "next_action_at") VALUES ($1, DEFAULT, DEFAULT, $2, $3, $4, DEFAULT, DEFAULT, DEFAULT, DEFAULT, DEFAULT, DEFAULT, DEFAULT, DEFAULT, DEFAULT, DEFAULT, DEFAULT, DEFAULT, DEFAULT, DEFAULT, DEFAULT, DEFAULT) RETURNING "id", "created_at", "updated_at", "is_trial", "cancel_at_period_end", "period_number", "renewal_attempts";

-- SubscriptionRepository.tryLockCompany
SELECT pg_try_advisory_xact_lock(hashtext($1)) AS locked;

-- SubscriptionRepository.update
UPDATE "subscriptions" SET "next_action_at" = $1, "updated_at" = CURRENT_TIMESTAMP WHERE ("id" = $2 AND "company_id" = $3);

-- SubscriptionRepository.updateChargeByKey
UPDATE "subscription_charges" SET "status" = $1, "provider_reference" = $2, "failure_code" = $3, "next_check_at" = $4, "updated_at" = CURRENT_TIMESTAMP WHERE ("idempotency_key" = $5 AND "company_id" = $6);
