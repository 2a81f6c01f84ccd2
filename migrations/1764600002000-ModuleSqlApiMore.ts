import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Issue #24: the rest of the SQL text the owners exported for other modules' statements
 * (`JobRepository.unassignedExistsSql`/`unassignedJsonSql`/`driverOnOrderSql`/`upcomingOfOrdersSql`,
 * `OrdersReadModel.ofCustomerSql`/`idsOfCustomerSql`, `CatalogueReadModel.ownedDaysSql`,
 * `CustomersService.demeritSql`) becomes SQL functions of the owners, declared in their `sql-api.ts`
 * (src/database/sql-api.ts), with the same columns, types, order and limits.
 *
 * The set-returning ones are a single SELECT, `LANGUAGE sql STABLE`, not STRICT: the planner inlines
 * them into the caller's statement (a correlated `EXISTS (SELECT 1 FROM jobs_unassigned(o.id) …)` is
 * planned as the semi-join it replaces). Their bodies use `$1..$n`, not the argument names (which the
 * result columns share).
 */
export class ModuleSqlApiMore1764600002000 implements MigrationInterface {
  name = 'ModuleSqlApiMore1764600002000';

  async up(q: QueryRunner): Promise<void> {
    // jobs
    await q.query(
      `CREATE FUNCTION jobs_unassigned(order_id uuid) RETURNS TABLE (id uuid, type text, scheduled_date date, created_at timestamptz) LANGUAGE sql STABLE PARALLEL SAFE AS $$
         SELECT j.id, j.type, j.scheduled_date, j.created_at FROM jobs j WHERE j.order_id = $1 AND j.status = 'unassigned' $$`,
    );
    await q.query(
      `CREATE FUNCTION jobs_drivers_on_order(order_id uuid) RETURNS TABLE (driver_id uuid) LANGUAGE sql STABLE PARALLEL SAFE AS $$
         SELECT j.driver_id FROM jobs j WHERE j.order_id = $1 AND j.status <> 'aborted' $$`,
    );
    await q.query(
      `CREATE FUNCTION jobs_upcoming_of_orders(company_id uuid, order_ids uuid[], from_date date, max_rows int)
         RETURNS TABLE (id uuid, order_id uuid, type text, status text, scheduled_date text, ord int) LANGUAGE sql STABLE PARALLEL SAFE AS $$
         SELECT j.id, j.order_id, j.type, j.status, j.scheduled_date::text AS scheduled_date,
                (row_number() OVER (ORDER BY j.scheduled_date, j.sequence NULLS LAST, j.id))::int AS ord
           FROM jobs j
          WHERE j.company_id = $1 AND j.order_id = ANY($2) AND j.status IN ('unassigned', 'assigned', 'in_progress')
            AND j.scheduled_date >= $3 AND j.merged_into_job_id IS NULL
          ORDER BY j.scheduled_date, j.sequence NULLS LAST, j.id
          LIMIT $4 $$`,
    );
    // orders
    await q.query(
      `CREATE FUNCTION orders_of_customer(company_id uuid, customer_id uuid, statuses text[], max_rows int)
         RETURNS TABLE (id uuid, number int, status text, specification_name text, delivery_date text, delivered_on text, pickup_date text,
                        total_amount int, balance_amount int, created_at text, ord int) LANGUAGE sql STABLE PARALLEL SAFE AS $$
         SELECT o.id, o.number, o.status, coalesce(catalogue_specification_name(o.asset_specification_id), '') AS specification_name,
                o.delivery_date::text AS delivery_date, o.delivered_on::text AS delivered_on, o.pickup_date::text AS pickup_date,
                o.total_amount, (o.total_amount - o.paid_amount) AS balance_amount, to_char(o.created_at AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"') AS created_at,
                (row_number() OVER (ORDER BY o.created_at DESC, o.number DESC))::int AS ord
           FROM orders o
          WHERE o.company_id = $1 AND o.customer_id = $2 AND ($3 IS NULL OR o.status = ANY($3))
          ORDER BY o.created_at DESC, o.number DESC
          LIMIT $4 $$`,
    );
    await q.query(
      `CREATE FUNCTION orders_ids_of_customer(company_id uuid, customer_id uuid, statuses text[]) RETURNS TABLE (id uuid) LANGUAGE sql STABLE PARALLEL SAFE AS $$
         SELECT o.id FROM orders o WHERE o.customer_id = $2 AND o.status = ANY($3) AND o.company_id = $1 $$`,
    );
    // catalogue
    await q.query(
      `CREATE FUNCTION catalogue_owned_days(company_id uuid, from_date date, to_date date, timezone text)
         RETURNS TABLE (id text, name text, assets int, owned_days int, ord int) LANGUAGE sql STABLE PARALLEL SAFE AS $$
         SELECT s.id::text AS id, s.name, count(a.id)::int AS assets,
                coalesce(sum(greatest(0, least($3, coalesce((a.deleted_at AT TIME ZONE $4)::date - 1, $3))
                                       - greatest($2, (a.created_at AT TIME ZONE $4)::date) + 1)) FILTER (WHERE a.id IS NOT NULL), 0)::int AS owned_days,
                (row_number() OVER (ORDER BY s.name, s.id))::int AS ord
           FROM asset_specifications s
           LEFT JOIN assets a ON a.asset_specification_id = s.id AND a.company_id = s.company_id
          WHERE s.company_id = $1 AND s.deleted_at IS NULL
          GROUP BY s.id, s.name $$`,
    );
    // customers
    await q.query(
      `CREATE FUNCTION customers_demerit(company_id uuid, customer_id uuid) RETURNS json LANGUAGE sql STABLE PARALLEL SAFE AS $$
         SELECT coalesce((SELECT json_build_object('points', dc.demerit_points, 'blocked', dc.demerit_blocked) FROM customers dc WHERE dc.id = $2 AND dc.company_id = $1),
                         json_build_object('points', 0, 'blocked', false)) $$`,
    );
  }

  async down(q: QueryRunner): Promise<void> {
    for (const f of [
      'customers_demerit(uuid, uuid)',
      'catalogue_owned_days(uuid, date, date, text)',
      'orders_ids_of_customer(uuid, uuid, text[])',
      'orders_of_customer(uuid, uuid, text[], int)',
      'jobs_upcoming_of_orders(uuid, uuid[], date, int)',
      'jobs_drivers_on_order(uuid)',
      'jobs_unassigned(uuid)',
    ]) {
      await q.query(`DROP FUNCTION ${f}`);
    }
  }
}
