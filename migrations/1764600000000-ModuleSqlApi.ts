import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Issue #24: the SQL functions through which one module's statement reads what another module owns
 * (docs/data-layer.md, "Cross-module data"). Each is declared by its owning module in its `sql-api.ts`
 * and named after it (`users_…`, `catalogue_…`, `companies_…`); another module's SQL calls the function
 * and never names the table behind it. They replace the SQL text the owners used to export
 * (`userNameSql`, `specificationNameSql`, …), with the same results and the same one statement per read.
 *
 * `users_matching` returns a set and is inlined by the planner (a plain SQL set-returning function):
 * `EXISTS (SELECT 1 FROM users_matching(:q) m WHERE m.id = x)` is planned as the subquery it replaces.
 * The scalar ones are STABLE lookups by primary key. Soft-deleted catalogue rows are included (an order
 * keeps showing what it was placed with).
 */
export class ModuleSqlApi1764600000000 implements MigrationInterface {
  name = 'ModuleSqlApi1764600000000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`CREATE FUNCTION users_name(user_id uuid) RETURNS text LANGUAGE sql STABLE PARALLEL SAFE AS $$ SELECT u.name FROM users u WHERE u.id = $1 $$`);
    await q.query(
      `CREATE FUNCTION users_matching(pattern text) RETURNS TABLE (id uuid) LANGUAGE sql STABLE PARALLEL SAFE AS $$ SELECT u.id FROM users u WHERE u.name ILIKE $1 OR u.email ILIKE $1 $$`,
    );
    await q.query(`CREATE FUNCTION catalogue_specification_name(specification_id uuid) RETURNS text LANGUAGE sql STABLE PARALLEL SAFE AS $$ SELECT s.name FROM asset_specifications s WHERE s.id = $1 $$`);
    await q.query(`CREATE FUNCTION catalogue_waste_type_name(waste_type_id uuid) RETURNS text LANGUAGE sql STABLE PARALLEL SAFE AS $$ SELECT w.name FROM waste_types w WHERE w.id = $1 $$`);
    await q.query(`CREATE FUNCTION companies_timezone(company_id uuid) RETURNS text LANGUAGE sql STABLE PARALLEL SAFE AS $$ SELECT coalesce((SELECT c.timezone FROM companies c WHERE c.id = $1), 'UTC') $$`);
    await q.query(`CREATE FUNCTION companies_currency(company_id uuid) RETURNS text LANGUAGE sql STABLE PARALLEL SAFE AS $$ SELECT c.currency FROM companies c WHERE c.id = $1 $$`);
    await q.query(`CREATE FUNCTION companies_plan_override(company_id uuid) RETURNS text LANGUAGE sql STABLE PARALLEL SAFE AS $$ SELECT c.plan_override FROM companies c WHERE c.id = $1 $$`);
  }

  async down(q: QueryRunner): Promise<void> {
    for (const f of ['users_name(uuid)', 'users_matching(text)', 'catalogue_specification_name(uuid)', 'catalogue_waste_type_name(uuid)', 'companies_timezone(uuid)', 'companies_currency(uuid)', 'companies_plan_override(uuid)']) {
      await q.query(`DROP FUNCTION ${f}`);
    }
  }
}
