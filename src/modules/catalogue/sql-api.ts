import type { SqlApi } from '../../database/sql-api';

/** The catalogue's SQL functions (src/database/sql-api.ts; created by migrations/1764600000000-ModuleSqlApi.ts). Soft-deleted rows included: an order keeps showing what it was placed with. */
export const SQL_API: SqlApi = {
  catalogue_specification_name: { args: 'specification_id uuid', returns: 'text', doc: "The asset specification's name." },
  catalogue_waste_type_name: { args: 'waste_type_id uuid', returns: 'text', doc: "The waste type's name." },
};
