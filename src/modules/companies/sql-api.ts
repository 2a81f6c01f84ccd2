import type { SqlApi } from '../../database/sql-api';

/** The companies module's SQL functions (src/database/sql-api.ts; created by migrations/1764600000000-ModuleSqlApi.ts). */
export const SQL_API: SqlApi = {
  companies_timezone: { args: 'company_id uuid', returns: 'text', doc: "The company's IANA time zone ('UTC' when the company is gone)." },
  companies_currency: { args: 'company_id uuid', returns: 'text', doc: "The company's ISO 4217 currency." },
  companies_plan_override: { args: 'company_id uuid', returns: 'text', doc: 'The plan code an administrator forces on the company (null: none).' },
};
