-- ReportCountersRepository: statement snapshots (test/database/sql-snapshots.spec.ts; UPDATE_SQL_SNAPSHOTS=1 rewrites)

-- ReportCountersRepository.acrossCompanies
SELECT company_id, sum(count)::bigint::text AS count, sum(amount)::bigint::text AS amount FROM report_daily_counters WHERE company_id = ANY($1) AND metric = $2 AND day BETWEEN $3 AND $4 GROUP BY company_id;

-- ReportCountersRepository.add (monthly metric)
WITH d AS (INSERT INTO report_daily_counters (company_id, metric, day, dim, count, amount) VALUES ($1, $2, $3, $4, $5, $6) ON CONFLICT (company_id, metric, day, dim) DO UPDATE SET count = report_daily_counters.count + EXCLUDED.count, amount = report_daily_counters.amount + EXCLUDED.amount RETURNING 1) INSERT INTO report_monthly_counters (company_id, metric, month, dim, count, amount) VALUES ($1, $2, date_trunc('month', $3::date)::date, $4, $5, $6) ON CONFLICT (company_id, metric, month, dim) DO UPDATE SET count = report_monthly_counters.count + EXCLUDED.count, amount = report_monthly_counters.amount + EXCLUDED.amount;

-- ReportCountersRepository.add (daily metric, pruned)
INSERT INTO report_daily_counters (company_id, metric, day, dim, count, amount) VALUES ($1, $2, $3, $4, $5, $6) ON CONFLICT (company_id, metric, day, dim) DO UPDATE SET count = report_daily_counters.count + EXCLUDED.count, amount = report_daily_counters.amount + EXCLUDED.amount;

-- ReportCountersRepository.customerFigures
SELECT c.id::text AS id, b.count, b.billed, d.balance, d.overdue, customers_demerit(c.company_id, c.id) AS demerit FROM unnest($1::uuid[], $2::uuid[]) AS c(company_id, id) CROSS JOIN LATERAL (SELECT coalesce(sum(x.count), 0)::bigint::text AS count, coalesce(sum(x.amount), 0)::bigint::text AS billed FROM report_daily_counters x WHERE x.company_id = c.company_id AND x.metric = 'customer_billed' AND x.dim = c.id::text AND x.day BETWEEN $3 AND $4) b CROSS JOIN LATERAL (SELECT coalesce(sum(x.amount), 0)::bigint::text AS balance, coalesce(sum(x.amount) FILTER (WHERE x.day < (now() AT TIME ZONE companies_timezone(c.company_id))::date), 0)::bigint::text AS overdue FROM report_daily_counters x WHERE x.company_id = c.company_id AND x.metric = 'customer_dues' AND x.dim = c.id::text) d;

-- ReportCountersRepository.keepMax
INSERT INTO report_daily_counters (company_id, metric, day, dim, count, amount) VALUES ($1, $2, $3, $4, 1, $5) ON CONFLICT (company_id, metric, day, dim) DO UPDATE SET amount = greatest(report_daily_counters.amount, EXCLUDED.amount);

-- ReportCountersRepository.lockOrderFacts
SELECT customer_id, day::text AS day, status, billed_amount::text AS billed_amount, balance_amount::text AS balance_amount, due_date::text AS due_date, asset_specification_id, delivered_on::text AS delivered_on, ended_on::text AS ended_on, billed_on::text AS billed_on FROM report_order_facts WHERE order_id = $1 AND company_id = $2 FOR UPDATE;

-- ReportCountersRepository.platformByDay
SELECT day::text AS day, sum(count)::bigint::text AS count, sum(amount)::bigint::text AS amount FROM report_daily_counters WHERE metric = $1 AND day BETWEEN $2 AND $3 GROUP BY day ORDER BY day;

-- ReportCountersRepository.platformByDay (one company)
SELECT day::text AS day, sum(count)::bigint::text AS count, sum(amount)::bigint::text AS amount FROM report_daily_counters WHERE metric = $1 AND day BETWEEN $2 AND $3 AND company_id = $4 GROUP BY day ORDER BY day;

-- ReportCountersRepository.readDim
SELECT metric, day::text AS day, count::text AS count, amount::text AS amount FROM report_daily_counters WHERE company_id = $1 AND metric = ANY($2) AND day BETWEEN $3 AND $4 AND dim = $5 ORDER BY metric, day;

-- ReportCountersRepository.startOrderFacts
INSERT INTO report_order_facts (order_id, company_id, customer_id, day, status) VALUES ($1, $2, $3, $4, 'none') ON CONFLICT (order_id) DO NOTHING;

-- ReportCountersRepository.updateOrderFacts
UPDATE "report_order_facts" SET "status" = $1, "billed_amount" = $2 WHERE ("order_id" = $3 AND "company_id" = $4);
