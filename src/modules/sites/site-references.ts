import { EntityManager } from 'typeorm';

/** A column of another module's table that points at a lot or station. */
export interface SiteReference {
  table: string;
  column: string;
  /** An extra SQL condition on that table (e.g. `location_type = 'lot'`). */
  where?: string;
}

const FINISHED_STATUSES = ['completed', 'aborted', 'cancelled', 'rejected'];

/**
 * Whether a live row of any of `refs` points at `id`. Tables and columns that do not exist (yet) are
 * skipped, so modules added later are honoured as soon as their migration runs. "Live" means not
 * soft-deleted and, for tables with a `status`, not finished (history keeps its references).
 */
export async function isReferenced(m: EntityManager, refs: SiteReference[], id: string): Promise<boolean> {
  if (!refs.length) return false;
  const tables = [...new Set(refs.map((r) => r.table))];
  const rows: { table_name: string; column_name: string }[] = await m.query(
    `SELECT table_name, column_name FROM information_schema.columns WHERE table_schema = current_schema() AND table_name = ANY($1)`,
    [tables],
  );
  const columns = new Map<string, Set<string>>();
  for (const r of rows) (columns.get(r.table_name) ?? columns.set(r.table_name, new Set()).get(r.table_name)!).add(r.column_name);
  for (const ref of refs) {
    const cols = columns.get(ref.table);
    if (!cols?.has(ref.column)) continue;
    const live: string[] = ref.where ? [ref.where] : [];
    if (cols.has('deleted_at')) live.push('deleted_at IS NULL');
    if (ref.table === 'jobs' && cols.has('status')) live.push(`status NOT IN (${FINISHED_STATUSES.map((s) => `'${s}'`).join(', ')})`);
    const [hit] = await m.query(`SELECT 1 FROM "${ref.table}" WHERE "${ref.column}" = $1 ${live.map((c) => `AND ${c}`).join(' ')} LIMIT 1`, [id]);
    if (hit) return true;
  }
  return false;
}

/** Whether a table exists in the current schema (tables of modules that may not be migrated yet). */
export async function tableExists(m: EntityManager, table: string): Promise<boolean> {
  const [row] = await m.query(`SELECT to_regclass($1) IS NOT NULL AS present`, [table]);
  return row.present === true;
}
