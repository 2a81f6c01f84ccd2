import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { loadConfig } from '../../src/config/app-config';
import { acquireDataFolderLock, DataFolderLockError } from '../../src/database/data-folder-lock';
import { moduleEntities } from '../../src/app.entities';
import { databaseTarget, openDataSource } from '../../src/database/data-source-options';
import { checkDatabase, openEmbedded, openPostgres } from '../../src/database/db-check';
import { orderWorld, placeOrder } from '../support/order-fixtures';
import { startTestApp, TestApp, testDatabaseKind } from '../support/test-app';

/**
 * `npm run db:check` (src/database/db-check.ts): amcheck on every index, and every foreign key, unique key,
 * check and NOT NULL column re-checked over the rows, on PostgreSQL beside a running server and on the
 * embedded database through its folder lock.
 */
describe('db:check on PostgreSQL', () => {
  let t: TestApp | undefined;
  afterAll(async () => t?.close());

  it('reports a database with orders clean, then finds an orphaned foreign key and a broken check', async () => {
    if ((await testDatabaseKind()) !== 'postgres') return;
    t = await startTestApp();
    const w = await orderWorld(t);
    await placeOrder(t, w);
    const sql = await openPostgres(t.config.databaseUrl!);
    try {
      const clean = await checkDatabase(sql, false);
      expect(clean.findings).toEqual([]);
      expect(clean.checked.indexes).toBeGreaterThan(100);
      expect(clean.checked.foreign_keys).toBeGreaterThan(50);
      expect(clean.checked.unique_keys).toBeGreaterThan(50);
      expect(clean.checked.checks).toBeGreaterThan(10);

      // An order whose customer is gone (foreign keys bypassed, as a damaged folder would have it), and a
      // negative total under a check made NOT VALID.
      await sql.query(`SET session_replication_role = replica`);
      await sql.query(`UPDATE orders SET customer_id = '00000000-0000-4000-8000-000000000000'`);
      await sql.query(`SET session_replication_role = DEFAULT`);
      const [check] = await sql.query<{ name: string; def: string }>(
        `SELECT conname AS name, pg_get_constraintdef(oid) AS def FROM pg_constraint WHERE conrelid = 'orders'::regclass AND contype = 'c' AND pg_get_constraintdef(oid) LIKE '%time_window%'`,
      );
      const findings = (await checkDatabase(sql, false)).findings;
      expect(findings.some((f) => /^foreign key \S+ on orders \(FOREIGN KEY \(customer_id\).*: 1 row$/.test(f))).toBe(true);
      await sql.query(`ALTER TABLE orders DROP CONSTRAINT ${check.name}`);
      await sql.query(`UPDATE orders SET time_window = 'midnight'`);
      await sql.query(`ALTER TABLE orders ADD CONSTRAINT ${check.name} ${check.def} NOT VALID`);
      expect((await checkDatabase(sql, false)).findings).toContainEqual(expect.stringMatching(new RegExp(`^check ${check.name} on orders .*: 1 row$`)));
    } finally {
      await sql.close();
    }
  });
});

describe('db:check on the embedded database', () => {
  // A new folder migrated by PGlite (WebAssembly, one core) then amcheck on every index: 40–55 s on a quiet
  // 2-core machine, more under load; the suite's 60 s per test is too tight for it.
  it('opens the folder only through its lock, and reports a migrated folder clean', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'haulops-db-check-'));
    try {
      const config = loadConfig({ DATA_DIR: dir, LOG_LEVEL: 'silent' });
      const ds = await openDataSource(await databaseTarget(config, { entities: moduleEntities() }));
      // While the "server" holds the folder, the check is refused and touches nothing.
      await expect(openEmbedded(join(dir, 'pgdata'))).rejects.toBeInstanceOf(DataFolderLockError);
      await ds.destroy();
      const sql = await openEmbedded(join(dir, 'pgdata'));
      try {
        const report = await checkDatabase(sql, true);
        expect(report.findings).toEqual([]);
        expect(report.checked.indexes).toBeGreaterThan(100);
      } finally {
        await sql.close();
      }
      // Released: the next opener gets the folder at once.
      (await acquireDataFolderLock(join(dir, 'pgdata'), { waitMs: 0 })).release();
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  }, 180_000);
});
