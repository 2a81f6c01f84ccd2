import { transformFileSync } from '@swc/core';
import { ChildProcess, spawn, spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, statSync, utimesSync, writeFileSync } from 'node:fs';
import { hostname, tmpdir } from 'node:os';
import { join } from 'node:path';
import { acquireDataFolderLock, DataFolderLock, DataFolderLockError, Holder, lockDirOf, markDataFoldersClosing, QUIET_CONFIRM_MS, STALE_MS } from '../../src/database/data-folder-lock';

/**
 * The data folder lock (src/database/data-folder-lock.ts) in one process, with hand-made holder files:
 * gone holders taken over at once (pid gone, pid reused, another host's stale heartbeat), live ones
 * refused (running; another host's once its heartbeat moves) or waited for (closing), the heartbeat
 * going on while the main thread is blocked, released on release() and on every exit of the process.
 * The built server with it: test/crash/data-folder-lock.crash.ts.
 */

const startTicks = (pid: number) => {
  const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
  return stat.slice(stat.lastIndexOf(')') + 2).split(' ')[19];
};
const bootId = () => readFileSync('/proc/sys/kernel/random/boot_id', 'utf8').trim();
const linux = existsSync('/proc/self/stat');
const itLinux = linux ? it : it.skip;

describe('data folder lock', () => {
  let root: string;
  let folder: string;
  const locks: DataFolderLock[] = [];
  const children: ChildProcess[] = [];

  beforeEach(() => {
    root = mkdtempSync(join(tmpdir(), 'haulops-lockspec-'));
    folder = join(root, 'pgdata');
  });
  afterEach(() => {
    for (const l of locks.splice(0)) l.release();
    for (const c of children.splice(0)) c.kill('SIGKILL');
    rmSync(root, { recursive: true, force: true });
  });

  const take = async (options: Parameters<typeof acquireDataFolderLock>[1] = {}) => {
    const lock = await acquireDataFolderLock(folder, { waitMs: 0, ...options });
    locks.push(lock);
    return lock;
  };
  /** A lock directory as another process would have left it. */
  const plant = (holder: Partial<Holder>, heartbeatAgoMs = 0) => {
    const dir = lockDirOf(folder);
    mkdirSync(dir, { recursive: true });
    const full: Holder = { pid: process.pid, hostname: hostname(), since: '2026-01-01T00:00:00.000Z', state: 'running', nonce: 'planted', opener: 'server', ...holder };
    writeFileSync(join(dir, 'holder.json'), JSON.stringify(full));
    const at = new Date(Date.now() - heartbeatAgoMs);
    utimesSync(join(dir, 'holder.json'), at, at);
    return full;
  };
  /** A live process other than this one (its pid and start time). */
  const live = () => {
    const child = spawn(process.execPath, ['-e', 'setInterval(() => {}, 1000)'], { stdio: 'ignore' });
    children.push(child);
    return { pid: child.pid!, start_ticks: linux ? startTicks(child.pid!) : undefined, boot_id: linux ? bootId() : undefined };
  };
  const holderFile = () => JSON.parse(readFileSync(join(lockDirOf(folder), 'holder.json'), 'utf8')) as Holder;

  it('is a directory next to the folder naming its holder; released, it is gone', async () => {
    const lock = await take({ opener: 'spec' });
    const h = holderFile();
    expect(h).toMatchObject({ pid: process.pid, hostname: hostname(), state: 'running', opener: 'spec' });
    if (linux) expect(h.start_ticks).toBe(startTicks(process.pid));
    expect(lock.isHeld()).toBe(true);
    lock.release();
    expect(existsSync(lockDirOf(folder))).toBe(false);
    lock.release(); // idempotent
    await take(); // free again
  });

  it('refuses a second opener while the first holds the folder, naming the folder and the holder', async () => {
    const first = await take();
    const err = await acquireDataFolderLock(folder, { waitMs: 0 }).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(DataFolderLockError);
    expect((err as Error).message).toBe(`DATA_DIR ${folder} is in use by process ${process.pid} (${first.info.opener}) since ${first.info.since}; stop it first`);
    expect(first.isHeld()).toBe(true);
  });

  itLinux('refuses a running holder within the grace period (1 s), however long the wait for a closing one', async () => {
    plant({ ...live(), state: 'running' });
    const t = Date.now();
    await expect(acquireDataFolderLock(folder, { waitMs: 10_000 })).rejects.toThrow(/is in use by process \d+ \(server\) since .*; stop it first$/);
    expect(Date.now() - t).toBeLessThan(3_000);
  });

  itLinux('waits for a closing holder: refused after the limit, or opened once it lets go', async () => {
    plant({ ...live(), state: 'closing' });
    const t = Date.now();
    await expect(acquireDataFolderLock(folder, { waitMs: 300 })).rejects.toThrow(/still closing after \d+ ms \(DATA_DIR_LOCK_WAIT_MS=300\); stop it first$/);
    expect(Date.now() - t).toBeGreaterThanOrEqual(300);

    const waits: Holder[] = [];
    const pending = take({ waitMs: 5_000, onWait: (h) => waits.push(h) });
    setTimeout(() => rmSync(lockDirOf(folder), { recursive: true }), 400);
    const lock = await pending;
    expect(waits).toHaveLength(1);
    expect(lock.isHeld()).toBe(true);
  });

  it('takes over at once from a holder whose process is gone (kill -9)', async () => {
    const gone = spawnSync(process.execPath, ['-e', 'process.stdout.write(String(process.pid))']).stdout.toString();
    plant({ pid: Number(gone), start_ticks: '1', boot_id: linux ? bootId() : undefined });
    const why: string[] = [];
    const t = Date.now();
    const lock = await take({ onTakeover: (_h, w) => why.push(w) });
    expect(Date.now() - t).toBeLessThan(500);
    expect(why).toEqual([`process ${gone} no longer exists`]);
    expect(holderFile().nonce).toBe(lock.info.nonce);
  });

  itLinux('does not trust a pid alone: the same pid with another start time is another process', async () => {
    plant({ pid: process.pid, start_ticks: '1', boot_id: bootId() });
    const why: string[] = [];
    await take({ onTakeover: (_h, w) => why.push(w) });
    expect(why).toEqual([`process ${process.pid} is another process now (pid reused)`]);
  });

  itLinux('a holder from before the last boot is gone', async () => {
    plant({ ...live(), boot_id: '00000000-0000-0000-0000-000000000000' });
    const why: string[] = [];
    await take({ onTakeover: (_h, w) => why.push(w) });
    expect(why).toEqual(['the host has restarted since']);
  });

  it("another host's holder: refused once its heartbeat is seen to move; taken over once watched still (never on our clock alone)", async () => {
    plant({ pid: 4242, hostname: 'elsewhere' });
    const file = join(lockDirOf(folder), 'holder.json');
    const beat = setInterval(() => utimesSync(file, new Date(), new Date()), 200);
    try {
      await expect(acquireDataFolderLock(folder, { waitMs: 0 })).rejects.toThrow(`DATA_DIR ${folder} is in use by process 4242 on elsewhere (server) since`);
    } finally {
      clearInterval(beat);
    }
    // Old already (its container was killed a while ago): taken over once watched still for a few beats.
    plant({ pid: 4242, hostname: 'elsewhere' }, STALE_MS + 5_000);
    const why: string[] = [];
    const t = Date.now();
    (await take({ onTakeover: (_h, w) => why.push(w) })).release();
    expect(Date.now() - t).toBeGreaterThanOrEqual(QUIET_CONFIRM_MS);
    expect(Date.now() - t).toBeLessThan(QUIET_CONFIRM_MS + 2_000);
    expect(why).toEqual([`no heartbeat from host elsewhere for ${STALE_MS} ms`]);
    // Fresh but not moving (killed just now): not refused; taken over once it is stale.
    plant({ pid: 4242, hostname: 'elsewhere' });
    await take({ staleMs: 1_500, onTakeover: (_h, w) => why.push(w) });
    expect(why[1]).toBe('no heartbeat from host elsewhere for 1500 ms');
  });

  it('the heartbeat goes on while the main thread is blocked (a worker thread touches holder.json)', async () => {
    await take();
    const file = join(lockDirOf(folder), 'holder.json');
    const before = statSync(file).mtimeMs;
    const until = Date.now() + 2_500;
    while (Date.now() < until) {
      /* a long synchronous query */
    }
    expect(statSync(file).mtimeMs).toBeGreaterThan(before);
  });

  it('a lock directory without a holder file is not taken over blindly', async () => {
    mkdirSync(join(lockDirOf(folder), 'something'), { recursive: true });
    await expect(acquireDataFolderLock(folder, { waitMs: 0 })).rejects.toThrow(/names no holder; if no process uses the folder, remove/);
  }, 10_000);

  it('markDataFoldersClosing marks the holder closing (a restart then waits instead of being refused)', async () => {
    const lock = await take();
    markDataFoldersClosing();
    expect(holderFile()).toMatchObject({ state: 'closing', nonce: lock.info.nonce });
    expect(lock.isHeld()).toBe(true);
  });

  it('is released when the process ends: normally, on process.exit, on an uncaught error', async () => {
    // The module, compiled for a plain `node` child.
    const js = join(root, 'lock.js');
    writeFileSync(js, transformFileSync(join(__dirname, '../../src/database/data-folder-lock.ts'), { jsc: { parser: { syntax: 'typescript' }, target: 'es2022' }, module: { type: 'commonjs' } }).code);
    for (const end of ['', 'process.exit(3);', 'throw new Error("boom");']) {
      const script = `require(${JSON.stringify(js)}).acquireDataFolderLock(${JSON.stringify(folder)}).then(() => { console.log('locked'); ${end} });`;
      const r = spawnSync(process.execPath, ['-e', script], { encoding: 'utf8' });
      expect(r.stdout).toContain('locked');
      expect(existsSync(lockDirOf(folder))).toBe(false);
    }
  });
});
