/**
 * jest globalTeardown: waits for global-setup.ts's cleanup of leaked test databases, then releases this
 * run's shared lock on the template database (closing its connection). The template is kept for the next run.
 */
export default async function globalTeardown(): Promise<void> {
  const admin = globalThis.__haulopsTemplateLock;
  const cleanup = globalThis.__haulopsCleanup;
  globalThis.__haulopsTemplateLock = globalThis.__haulopsCleanup = undefined;
  await cleanup;
  await admin?.end().catch(() => undefined);
}
