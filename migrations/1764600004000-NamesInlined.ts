import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Issue #24: names for lists and hot reads as set-returning SQL functions, which the planner inlines
 * (`LEFT JOIN LATERAL users_named(o.customer_id) nc ON true` is planned as the join it stands for, an index
 * lookup behind a Memoize node). The scalar forms (`users_name(…)`, 1764600000000-ModuleSqlApi) are planned
 * anew at every execution of the statement that calls them and run once per row: on the order list (20
 * rows, three names each) they were 40 % of PostgreSQL's CPU per request (1.22 → 0.71 ms measured on the
 * bench database; docs/performance.md). Same rows as the scalar forms: soft-deleted catalogue rows included.
 */
export class NamesInlined1764600004000 implements MigrationInterface {
  name = 'NamesInlined1764600004000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`CREATE FUNCTION users_named(user_id uuid) RETURNS TABLE (name text) LANGUAGE sql STABLE PARALLEL SAFE AS $$ SELECT u.name FROM users u WHERE u.id = $1 $$`);
    await q.query(
      `CREATE FUNCTION catalogue_specification_named(specification_id uuid) RETURNS TABLE (name text) LANGUAGE sql STABLE PARALLEL SAFE AS $$ SELECT s.name FROM asset_specifications s WHERE s.id = $1 $$`,
    );
    await q.query(`CREATE FUNCTION catalogue_waste_type_named(waste_type_id uuid) RETURNS TABLE (name text) LANGUAGE sql STABLE PARALLEL SAFE AS $$ SELECT w.name FROM waste_types w WHERE w.id = $1 $$`);
  }

  async down(q: QueryRunner): Promise<void> {
    for (const f of ['users_named(uuid)', 'catalogue_specification_named(uuid)', 'catalogue_waste_type_named(uuid)']) await q.query(`DROP FUNCTION ${f}`);
  }
}
