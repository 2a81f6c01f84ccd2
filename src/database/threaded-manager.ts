/**
 * A transaction manager that a caller still threads through a call (`jobs.move(m, job, …)`), from before
 * the unit of work carried it (issue #24): a converted module keeps accepting it, ignores it (the
 * caller's manager is the open unit's, which its repositories use anyway) and marks the form
 * `@deprecated`, until the calling module is converted and drops the argument.
 *
 * @deprecated the unit of work carries it
 */
export type ThreadedManager = unknown;

function isManager(x: unknown): boolean {
  if (x === null || typeof x !== 'object') return false;
  const o = x as Record<string, unknown>;
  return o['@instanceof'] === Symbol.for('EntityManager') || ('connection' in o && 'queryRunner' in o && typeof o.query === 'function');
}

/**
 * The arguments of a call without the manager a deprecated caller threads first (`move(m, job, …)` →
 * `[job, …]`); the arguments as they are otherwise. For an overloaded method:
 *
 * ```ts
 * reschedule(jobId: string, date: string): Promise<void>;
 * /** @deprecated the unit of work carries the manager: call without it *\/
 * reschedule(m: ThreadedManager, jobId: string, date: string): Promise<void>;
 * async reschedule(...args: unknown[]): Promise<void> {
 *   const [jobId, date] = withoutManager<[string, string]>(args);
 * ```
 */
export function withoutManager<A extends unknown[]>(args: readonly unknown[]): A {
  return (args.length && isManager(args[0]) ? args.slice(1) : [...args]) as A;
}
