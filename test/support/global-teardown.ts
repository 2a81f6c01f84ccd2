/**
 * jest globalTeardown: waits for global-setup.ts's cleanup of leaked test databases, then releases this
 * run's shared lock on the template database (closing its connection), and removes the prebuilt OpenAPI
 * document. The template is kept for the next run.
 */
import { rmSync } from 'node:fs';

export default async function globalTeardown(): Promise<void> {
  if (globalThis.__haulopsOpenApiDir) rmSync(globalThis.__haulopsOpenApiDir, { recursive: true, force: true });
  const admin = globalThis.__haulopsTemplateLock;
  const cleanup = globalThis.__haulopsCleanup;
  globalThis.__haulopsTemplateLock = globalThis.__haulopsCleanup = undefined;
  await cleanup;
  await admin?.end().catch(() => undefined);
}
