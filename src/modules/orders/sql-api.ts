import type { SqlApi } from '../../database/sql-api';

/** The orders module's SQL functions (src/database/sql-api.ts; created by migrations/1764600002000-ModuleSqlApiMore.ts). Set-returning, inlined by the planner. */
export const SQL_API: SqlApi = {
  orders_of_customer: {
    args: 'company_id uuid, customer_id uuid, statuses text[], max_rows integer',
    returns:
      'TABLE(id uuid, number integer, status text, specification_name text, delivery_date text, delivered_on text, pickup_date text, total_amount integer, balance_amount integer, created_at text, ord integer)',
    doc: "A customer's orders in some statuses (all when statuses is null), newest first (then by number), at most max_rows, as `OrderSummaryRow` columns plus ord (the rank). idx_orders_company_customer_created.",
  },
  orders_ids_of_customer: {
    args: 'company_id uuid, customer_id uuid, statuses text[]',
    returns: 'TABLE(id uuid)',
    doc: "The ids of a customer's orders in some statuses. idx_orders_customer.",
  },
};
