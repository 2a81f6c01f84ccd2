/** Polls `check` every 20 ms until it holds; throws naming `what` when it has not within `timeoutMs`. */
export async function waitFor(what: string, check: () => boolean | Promise<boolean>, timeoutMs = 30_000): Promise<void> {
  for (const end = Date.now() + timeoutMs; !(await check()); await new Promise((r) => setTimeout(r, 20))) {
    if (Date.now() > end) throw new Error(`timed out waiting for ${what} (${timeoutMs} ms)`);
  }
}
