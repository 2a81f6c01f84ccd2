import type { SqlApi } from '../../database/sql-api';

/** The customers module's SQL functions (src/database/sql-api.ts; created by migrations/1764600002000-ModuleSqlApiMore.ts). */
export const SQL_API: SqlApi = {
  customers_demerit: {
    args: 'company_id uuid, customer_id uuid',
    returns: 'json',
    doc: "The customer's demerit standing as {points, blocked} (`CustomersService#demerit`); {0, false} when there is no such customer of the company.",
  },
};
