import type { SqlApi } from '../../database/sql-api';

/** The catalogue's SQL functions (src/database/sql-api.ts; created by migrations/1764600000000-ModuleSqlApi.ts and 1764600002000-ModuleSqlApiMore.ts). Soft-deleted rows included: an order keeps showing what it was placed with. */
export const SQL_API: SqlApi = {
  catalogue_specification_name: { args: 'specification_id uuid', returns: 'text', doc: "The asset specification's name." },
  catalogue_waste_type_name: { args: 'waste_type_id uuid', returns: 'text', doc: "The waste type's name." },
  catalogue_specification_named: {
    args: 'specification_id uuid',
    returns: 'TABLE(name text)',
    doc: "The asset specification's name as a row, for lists and hot reads: `LEFT JOIN LATERAL catalogue_specification_named(o.asset_specification_id) ns ON true`, inlined by the planner.",
  },
  catalogue_waste_type_named: {
    args: 'waste_type_id uuid',
    returns: 'TABLE(name text)',
    doc: "The waste type's name as a row, for lists and hot reads: `LEFT JOIN LATERAL catalogue_waste_type_named(o.waste_type_id) nw ON true`, inlined by the planner.",
  },
  catalogue_owned_days: {
    args: 'company_id uuid, from_date date, to_date date, timezone text',
    returns: 'TABLE(id text, name text, assets integer, owned_days integer, ord integer)',
    doc: 'Per live specification of the company: its assets and the days they were owned over [from_date, to_date] (from the local date of creation in `timezone` to the day before deletion; retired assets count while kept); ord is the rank by name then id. Set-returning, inlined.',
  },
};
