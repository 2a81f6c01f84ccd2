import type { SqlApi } from '../../database/sql-api';

/** The users module's SQL functions (src/database/sql-api.ts; created by migrations/1764600000000-ModuleSqlApi.ts). */
export const SQL_API: SqlApi = {
  users_name: { args: 'user_id uuid', returns: 'text', doc: "The user's display name (null: no such user)." },
  users_named: {
    args: 'user_id uuid',
    returns: 'TABLE(name text)',
    doc: "The user's display name as a row (none: no such user), for lists and hot reads: `LEFT JOIN LATERAL users_named(o.customer_id) nc ON true`, inlined by the planner (1764600004000-NamesInlined).",
  },
  users_matching: {
    args: 'pattern text',
    returns: 'TABLE(id uuid)',
    doc: 'The ids of the users whose name or e-mail matches the ILIKE pattern; inlined by the planner, use as `EXISTS (SELECT 1 FROM users_matching(:q) m WHERE m.id = x.user_id)`.',
  },
};
