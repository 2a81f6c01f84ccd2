/**
 * A module's SQL API (issue #24, docs/data-layer.md "Cross-module data in one statement"): the SQL
 * functions a module creates in its migrations so that another module's statement can read what it owns
 * without naming its tables, as `users_name(o.customer_id)`. The typed methods of the module's services
 * are the first way to its data; these are for the reads that must stay one statement (a page of a list,
 * a hot read under a statement budget, a report's aggregate).
 *
 * Each module declares its functions in its `sql-api.ts` (`export const SQL_API: SqlApi = { … }`), named
 * `<module>_<what>` (`qr-codes` → `qr_codes_…`). The checks:
 * - `test/project/data-layer.spec.ts`: another module's SQL calls only functions its owner declares;
 * - `test/database/schema-drift.spec.ts`: each declared function exists in the migrated database with
 *   exactly the declared arguments and result, and every such function of the database is declared.
 */
export interface SqlFunction {
  /** The identity arguments as PostgreSQL prints them (`pg_get_function_identity_arguments`), e.g. `user_id uuid`. */
  args: string;
  /** The result as PostgreSQL prints it (`pg_get_function_result`), e.g. `text`, `TABLE(id uuid)`. */
  returns: string;
  /** What it answers, for the reader of another module's SQL. */
  doc: string;
}

export type SqlApi = Record<string, SqlFunction>;
