import { DiscoveryService } from '@nestjs/core';
import { existsSync, mkdirSync, readdirSync, readFileSync, unlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { QueryFailedError } from 'typeorm';
import { ApiError } from '../../src/common/http/api-error';
import { Scope } from '../../src/common/access/scope';
import { SQL_SAMPLE, sqlSamplesOf, type SqlSample } from '../../src/database/generate-sql';
import { ModuleRepository } from '../../src/database/repository';
import { UnitOfWork } from '../../src/database/unit-of-work';
import { startTestApp, TestApp } from '../support/test-app';

/**
 * Statement snapshots (src/database/generate-sql.ts): every public method of every repository is called
 * with its `@GenerateSql` samples (or, without one, a sample made from its parameters' names: `inferred`) inside a unit of work that is rolled back, and the SQL it sends is
 * compared with `test/database/sql/<Repository>.sql`. A changed query shows in review as a diff of SQL.
 *
 *   UPDATE_SQL_SNAPSHOTS=1 npx jest test/database/sql-snapshots.spec.ts   # rewrites the snapshots after a change
 *
 * A sample may end in a 404 or another API error (the database is empty), or in a constraint violation
 * (a write naming sample ids that no row has): what was sent until then is its snapshot. Any other
 * failure (a statement PostgreSQL cannot plan: unknown column, syntax) fails the test.
 */
const DIR = join(__dirname, 'sql');
const UPDATE = process.env.UPDATE_SQL_SNAPSHOTS === '1';
const ROLLBACK = new Error('roll back the sample');
const CONTROL = /^(START TRANSACTION|BEGIN|COMMIT|ROLLBACK|SAVEPOINT|RELEASE SAVEPOINT|ROLLBACK TO SAVEPOINT|SET LOCAL)\b/i;

const tidy = (sql: string) => sql.replace(/\s+/g, ' ').trim();

/**
 * A method without `@GenerateSql` gets one sample from its parameters' names, when every name is one of
 * the conventions: a parameter with a default (left to it), `q`/`query` (a list's first page), `from`/`to` (dates), `scope` (a company's scope), `id`/`…Id` (a sample id), `…By` (an actor's id), `ids`/`…Ids`, `date`/`day`/`…On`
 * (a date), `at`/`now`/`…At` (a time). Any other parameter needs `@GenerateSql({ params })`.
 */
function inferred(fn: (...a: unknown[]) => unknown): SqlSample[] | null {
  const text = fn.toString();
  const list = text.slice(text.indexOf('(') + 1, text.indexOf(')'));
  const parts = list.split(',').map((p) => p.trim()).filter(Boolean);
  const params: unknown[] = [];
  for (const part of parts) {
    const n = part.split(/[\s=:]/)[0];
    if (part.includes('=')) params.push(undefined); // a parameter with a default: the default
    else if (n === 'q' || n === 'query') params.push({ page: 1, per_page: 20 });
    else if (n === 'from' || n === 'to') params.push(SQL_SAMPLE.date);
    else if (n === 'scope' || /Scope$/.test(n)) params.push(Scope.company(SQL_SAMPLE.companyId, SQL_SAMPLE.actorId));
    else if (n === 'id' || /Id$/.test(n)) params.push(SQL_SAMPLE.id);
    else if (/By$/.test(n)) params.push(SQL_SAMPLE.actorId);
    else if (n === 'ids' || /Ids$/.test(n)) params.push([SQL_SAMPLE.id, SQL_SAMPLE.otherId]);
    else if (n === 'date' || n === 'day' || /On$/.test(n)) params.push(SQL_SAMPLE.date);
    else if (n === 'at' || n === 'now' || /At$/.test(n)) params.push(SQL_SAMPLE.at);
    else return null;
  }
  return [{ params }];
}

describe('statement snapshots of the repositories', () => {
  let t: TestApp;
  const snapshots = new Map<string, string>();
  const problems: string[] = [];
  let repositories = 0;

  beforeAll(async () => {
    t = await startTestApp();
    const uow = t.app.get(UnitOfWork);
    const logger = t.ds.logger;
    const logQuery = logger.logQuery.bind(logger);
    let sent: string[] | null = null;
    logger.logQuery = (query, parameters, runner) => {
      if (sent && !CONTROL.test(query.trim())) sent.push(tidy(query));
      return logQuery(query, parameters, runner);
    };
    const found = t.app
      .get(DiscoveryService)
      .getProviders()
      .map((w) => w.instance as unknown)
      .filter((i): i is ModuleRepository => i instanceof ModuleRepository);
    // One per class (a repository provided by two modules is the same SQL).
    const unique = [...new Map(found.map((r) => [r.constructor, r])).values()].sort((a, b) => a.constructor.name.localeCompare(b.constructor.name));
    repositories = unique.length;
    for (const repo of unique) {
      const cls = repo.constructor.name;
      const proto = Object.getPrototypeOf(repo) as object;
      const samples = sqlSamplesOf(proto);
      const methods = Object.getOwnPropertyNames(proto).filter((k) => k !== 'constructor' && typeof Object.getOwnPropertyDescriptor(proto, k)?.value === 'function');
      const parts: string[] = [`-- ${cls}: statement snapshots (test/database/sql-snapshots.spec.ts; UPDATE_SQL_SNAPSHOTS=1 rewrites)`];
      for (const method of methods.sort()) {
        const declared = samples.get(method) ?? inferred((proto as Record<string, (...a: unknown[]) => unknown>)[method]);
        if (!declared) {
          problems.push(`${cls}.${method}: parameters not named by the conventions; declare @GenerateSql({ params }) or @GenerateSql.skip('why')`);
          continue;
        }
        if (!Array.isArray(declared)) {
          parts.push(`\n-- ${cls}.${method}: skipped (${declared.skip})`);
          continue;
        }
        for (const sample of declared) {
          const params = typeof sample.params === 'function' ? sample.params() : sample.params;
          const statements: string[] = [];
          let failure: unknown;
          await uow
            .transaction(async () => {
              sent = statements;
              try {
                await (repo as unknown as Record<string, (...a: unknown[]) => Promise<unknown>>)[method](...params);
              } catch (e) {
                failure = e;
              } finally {
                sent = null;
              }
              throw ROLLBACK;
            })
            .catch((e) => {
              if (e !== ROLLBACK) failure ??= e;
            });
          const acceptable = failure === undefined || failure instanceof ApiError || (failure instanceof QueryFailedError && String((failure as { code?: string }).code ?? '').startsWith('23'));
          if (!acceptable) problems.push(`${cls}.${method}${sample.name ? ` (${sample.name})` : ''}: ${(failure as Error)?.message ?? String(failure)}`);
          parts.push(`\n-- ${cls}.${method}${sample.name ? ` (${sample.name})` : ''}`);
          parts.push(...(statements.length ? statements.map((s) => `${s};`) : ['-- (no statement)']));
        }
      }
      snapshots.set(`${cls}.sql`, parts.join('\n') + '\n');
    }
  });
  afterAll(async () => t?.close());

  it('every public repository method declares its samples, and each runs', () => {
    expect(problems).toEqual([]);
  });

  it('the SQL each repository method sends matches its committed snapshot', () => {
    if (UPDATE) {
      mkdirSync(DIR, { recursive: true });
      for (const f of existsSync(DIR) ? readdirSync(DIR) : []) if (f.endsWith('.sql') && !snapshots.has(f)) unlinkSync(join(DIR, f));
      for (const [f, text] of snapshots) writeFileSync(join(DIR, f), text);
    }
    const committed = existsSync(DIR) ? readdirSync(DIR).filter((f) => f.endsWith('.sql')) : [];
    expect(committed.filter((f) => !snapshots.has(f)).map((f) => `${f}: no such repository (delete the snapshot)`)).toEqual([]);
    for (const [f, text] of snapshots) {
      const path = join(DIR, f);
      expect(existsSync(path) ? `${f}\n${readFileSync(path, 'utf8')}` : `${f}: no snapshot (run with UPDATE_SQL_SNAPSHOTS=1)`).toBe(`${f}\n${text}`);
    }
    expect(snapshots.size).toBe(repositories);
  });
});
