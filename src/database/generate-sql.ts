/**
 * Statement snapshots (the idea of immich's `@GenerateSql`): a repository method declares sample
 * arguments, and `test/database/sql-snapshots.spec.ts` calls it with them inside a unit of work that is
 * rolled back, records the SQL it sends, and compares it with the committed snapshot in
 * `test/database/sql/<Repository>.sql`. A change to a query then shows in review as a diff of SQL, and a
 * query that fails to plan fails the test.
 *
 * ```ts
 * @GenerateSql({ params: [SQL_SAMPLE.scope, SQL_SAMPLE.id] })
 * findForScope(scope: Scope, id: string) { … }
 *
 * @GenerateSql.skip('streams a file from storage; no SQL')
 * ```
 *
 * A method whose parameters are all named by the conventions (a parameter with a default, `q`/`query`, `from`/`to`, `scope`, `id`/`…Id`, `…By`, `ids`/`…Ids`,
 * `date`/`day`/`…On`, `at`/`now`/`…At`) needs neither: the test makes its sample from the names. Any other
 * public method of a repository declares one of the two (the test fails on a method that declares neither). Samples run against an empty database: a method may throw (a 404 for the sample id)
 * after its statements; what it sent until then is the snapshot.
 */
export interface SqlSample {
  /** Label of the sample in the snapshot, when a method has several (e.g. "with filters"). */
  name?: string;
  /** The arguments (a function: built when the test runs, e.g. objects with dates). */
  params: unknown[] | (() => unknown[]);
}

const SAMPLES = Symbol('haulops:generate-sql');

type SampleMap = Map<string, SqlSample[] | { skip: string }>;

function mapOf(target: object): SampleMap {
  const own = Object.prototype.hasOwnProperty.call(target, SAMPLES) ? (target as { [SAMPLES]: SampleMap })[SAMPLES] : undefined;
  if (own) return own;
  const map: SampleMap = new Map();
  Object.defineProperty(target, SAMPLES, { value: map, enumerable: false });
  return map;
}

/** Declares the sample calls of a repository method for its statement snapshot. */
export function GenerateSql(...samples: SqlSample[]): MethodDecorator {
  return (target, key) => {
    mapOf(target).set(String(key), samples.length ? samples : [{ params: [] }]);
  };
}

/** A repository method without SQL of its own to snapshot (says why). */
GenerateSql.skip = (why: string): MethodDecorator => (target, key) => {
  mapOf(target).set(String(key), { skip: why });
};

/** The declared samples of a repository class's methods (its own prototype's). */
export function sqlSamplesOf(prototype: object): ReadonlyMap<string, SqlSample[] | { skip: string }> {
  return Object.prototype.hasOwnProperty.call(prototype, SAMPLES) ? (prototype as { [SAMPLES]: SampleMap })[SAMPLES] : new Map();
}

/** Sample values: fixed ids (no row has them), so snapshots are the same on every run. */
export const SQL_SAMPLE = {
  id: '00000000-0000-4000-8000-000000000001',
  otherId: '00000000-0000-4000-8000-000000000002',
  companyId: '00000000-0000-4000-8000-0000000000c0',
  actorId: '00000000-0000-4000-8000-0000000000a0',
  date: '2026-12-01',
  at: new Date('2026-12-01T10:00:00.000Z'),
} as const;
