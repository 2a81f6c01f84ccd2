-- DemeritRepository: statement snapshots (test/database/sql-snapshots.spec.ts; UPDATE_SQL_SNAPSHOTS=1 rewrites)

-- DemeritRepository.aggregate
SELECT coalesce(sum(points) FILTER (WHERE status <> 'waived' AND created_at > $2), 0)::int AS points, min(created_at) FILTER (WHERE status <> 'waived' AND points > 0 AND created_at > $2) AS oldest, count(*)::int AS n, max(created_at) AS last FROM customer_policy_violations WHERE customer_id = $1 AND company_id = $3 AND deleted_at IS NULL;

-- DemeritRepository.claimDue
SELECT id FROM customer_demerits WHERE customer_id = $1 AND company_id = $3 AND points_change_at <= $2 FOR UPDATE SKIP LOCKED;

-- DemeritRepository.counts
SELECT count(*) FILTER (WHERE v.status = 'open')::int AS open, count(*) FILTER (WHERE v.status = 'disputed')::int AS disputed, count(*) FILTER (WHERE v.status = 'upheld')::int AS upheld, count(*) FILTER (WHERE v.status = 'waived')::int AS waived, max(v.created_at) AS last FROM customer_policy_violations v WHERE v.customer_id = $1 AND v.company_id = $2 AND v.deleted_at IS NULL;

-- DemeritRepository.customerIds
SELECT "CustomerDemerit"."id" AS "CustomerDemerit_id", "CustomerDemerit"."customer_id" AS "CustomerDemerit_customer_id" FROM "customer_demerits" "CustomerDemerit" WHERE (("CustomerDemerit"."company_id" = $1)) ORDER BY "CustomerDemerit_customer_id" ASC;

-- DemeritRepository.due
SELECT company_id, customer_id FROM customer_demerits WHERE points_change_at <= $1 ORDER BY points_change_at LIMIT 500;

-- DemeritRepository.find
SELECT "CustomerDemerit"."id" AS "CustomerDemerit_id", "CustomerDemerit"."created_at" AS "CustomerDemerit_created_at", "CustomerDemerit"."updated_at" AS "CustomerDemerit_updated_at", "CustomerDemerit"."company_id" AS "CustomerDemerit_company_id", "CustomerDemerit"."customer_id" AS "CustomerDemerit_customer_id", "CustomerDemerit"."points" AS "CustomerDemerit_points", "CustomerDemerit"."warning_reached" AS "CustomerDemerit_warning_reached", "CustomerDemerit"."blocked" AS "CustomerDemerit_blocked", "CustomerDemerit"."violations_count" AS "CustomerDemerit_violations_count", "CustomerDemerit"."last_violation_at" AS "CustomerDemerit_last_violation_at", "CustomerDemerit"."points_change_at" AS "CustomerDemerit_points_change_at" FROM "customer_demerits" "CustomerDemerit" WHERE (("CustomerDemerit"."company_id" = $1) AND ("CustomerDemerit"."customer_id" = $2)) LIMIT 1;

-- DemeritRepository.lockOrCreate
INSERT INTO customer_demerits (company_id, customer_id) VALUES ($1, $2) ON CONFLICT (customer_id) DO NOTHING;

-- DemeritRepository.orders
SELECT v.order_id, max(v.order_number) AS order_number, count(*)::int AS n, coalesce(sum(v.points) FILTER (WHERE v.status <> 'waived'), 0)::int AS points, coalesce(sum(v.charged_amount), 0)::int AS charged, coalesce(sum(v.credited_amount), 0)::int AS credited, count(*) FILTER (WHERE v.status = 'open')::int AS open, count(*) FILTER (WHERE v.status = 'disputed')::int AS disputed, count(*) FILTER (WHERE v.status = 'upheld')::int AS upheld, count(*) FILTER (WHERE v.status = 'waived')::int AS waived, max(v.created_at) AS last FROM customer_policy_violations v WHERE v.company_id = $1 AND v.customer_id = $2 AND v.deleted_at IS NULL GROUP BY v.order_id ORDER BY points DESC, v.order_id DESC LIMIT $3 OFFSET $4;
SELECT count(DISTINCT v.order_id)::int AS total FROM customer_policy_violations v WHERE v.company_id = $1 AND v.customer_id = $2 AND v.deleted_at IS NULL;

-- DemeritRepository.page
SELECT "d"."id" AS "d_id", "d"."created_at" AS "d_created_at", "d"."updated_at" AS "d_updated_at", "d"."company_id" AS "d_company_id", "d"."customer_id" AS "d_customer_id", "d"."points" AS "d_points", "d"."warning_reached" AS "d_warning_reached", "d"."blocked" AS "d_blocked", "d"."violations_count" AS "d_violations_count", "d"."last_violation_at" AS "d_last_violation_at", "d"."points_change_at" AS "d_points_change_at" FROM "customer_demerits" "d" WHERE "d"."company_id" = $1 ORDER BY "d"."points" DESC, "d"."id" DESC LIMIT 20 OFFSET 20;
SELECT count(*)::int AS "n" FROM "customer_demerits" "d" WHERE "d"."company_id" = $1;

-- DemeritRepository.page (filtered)
SELECT "d"."id" AS "d_id", "d"."created_at" AS "d_created_at", "d"."updated_at" AS "d_updated_at", "d"."company_id" AS "d_company_id", "d"."customer_id" AS "d_customer_id", "d"."points" AS "d_points", "d"."warning_reached" AS "d_warning_reached", "d"."blocked" AS "d_blocked", "d"."violations_count" AS "d_violations_count", "d"."last_violation_at" AS "d_last_violation_at", "d"."points_change_at" AS "d_points_change_at" FROM "customer_demerits" "d" WHERE "d"."company_id" = $1 AND "d"."warning_reached" = $2 AND "d"."blocked" = $3 AND EXISTS (SELECT 1 FROM users_matching($4) m WHERE m.id = "d"."customer_id") ORDER BY "d"."last_violation_at" ASC, "d"."id" ASC LIMIT 20 OFFSET 0;
SELECT count(*)::int AS "n" FROM "customer_demerits" "d" WHERE "d"."company_id" = $1 AND "d"."warning_reached" = $2 AND "d"."blocked" = $3 AND EXISTS (SELECT 1 FROM users_matching($4) m WHERE m.id = "d"."customer_id");

-- DemeritRepository.update
UPDATE "customer_demerits" SET "points" = $1, "warning_reached" = $2, "blocked" = $3, "violations_count" = $4, "last_violation_at" = $5, "points_change_at" = $6, "updated_at" = CURRENT_TIMESTAMP WHERE ("id" = $7 AND "company_id" = $8);
