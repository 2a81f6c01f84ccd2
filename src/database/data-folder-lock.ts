import { randomBytes } from 'node:crypto';
import { mkdirSync, readFileSync, renameSync, rmSync, statSync, utimesSync, writeFileSync } from 'node:fs';
import { hostname } from 'node:os';
import { basename, dirname, join, resolve } from 'node:path';
import { Worker } from 'node:worker_threads';

/**
 * One process per embedded data folder (issue #30; docs/embedded-database.md).
 *
 * The lock is a directory next to the folder, `<folder>.lock` (DATA_DIR/pgdata.lock), holding one file,
 * `holder.json`: who holds it (pid, the process's start time, boot id, host name, since when, a random
 * nonce) and whether it is `running` or `closing`. It is created whole or not at all: the holder file is
 * written into a fresh directory which is then renamed to `<folder>.lock`, and renaming a directory onto
 * a non-empty one fails (atomic, on every local file system; no window where the lock has no holder).
 *
 * A lock whose holder is gone is taken over at once, without trusting a PID alone (PIDs are reused; the
 * embedded engine's own is always 42): on the same host and boot the holder is alive only if its pid
 * exists and, where /proc gives it, that pid's start time is the one recorded. Where that cannot be
 * told (a holder on another host name: another container or machine on a shared volume; no /proc), the
 * heartbeat decides: the holder touches its file every HEARTBEAT_MS from a worker thread (so a main
 * thread blocked by the embedded engine does not stop it; it stops only with the process). Such a
 * holder is alive once its heartbeat is seen to move, gone once it has been watched not moving for
 * STALE_MS (or for QUIET_CONFIRM_MS when it was already older than STALE_MS: the clocks of two hosts
 * alone never decide).
 *
 * A newcomer facing a live holder: a `closing` one (a server between SIGTERM and exit) is waited for,
 * up to `waitMs`; a `running` one refuses it after RUNNING_GRACE_MS (room for a holder that has just
 * been signalled to mark itself closing). Refused: `DataFolderLockError`, nothing in the folder touched.
 *
 * Released (synchronously: also from the process's `exit` event, so uncaught errors and process.exit
 * release it) after the embedded engine has closed. kill -9 leaves the directory behind: stale, above.
 */

export interface Holder {
  pid: number;
  /** /proc/<pid>/stat field 22 (clock ticks after boot); absent without /proc. */
  start_ticks?: string;
  boot_id?: string;
  hostname: string;
  since: string;
  state: 'running' | 'closing';
  nonce: string;
  /** What opened the folder: `server`, `migration CLI`, `bench`… */
  opener: string;
}

export interface LockOptions {
  /** How long to wait for a holder that is closing (DATA_DIR_LOCK_WAIT_MS); 0: refuse at once. */
  waitMs?: number;
  /** Named in the holder file and in the message a refused opener gets. */
  opener?: string;
  /** Told once when the opener starts waiting: for a closing holder, or for the heartbeat of one on another host. */
  onWait?: (holder: Holder, reason: 'closing' | 'heartbeat') => void;
  /** Told when the lock was taken from a holder that is gone (kill -9, power loss). */
  onTakeover?: (holder: Holder | undefined, why: string) => void;
  /** Told if the lock directory is found not to be this holder's any more (removed by hand). Never thrown. */
  onLost?: (found: Holder | undefined) => void;
  /** Tests: another STALE_MS. */
  staleMs?: number;
}

export const DEFAULT_LOCK_WAIT_MS = 15_000;
/** The server's exit code when refused (EX_TEMPFAIL: try again once the holder has stopped). */
export const EXIT_DATA_FOLDER_IN_USE = 75;
/** A running holder gets this long to mark itself closing (a restart's SIGTERM may not be handled yet). */
export const RUNNING_GRACE_MS = 1_000;
/** The holder touches holder.json this often (from a worker thread). */
export const HEARTBEAT_MS = 1_000;
/** A heartbeat older than this: the holder is gone (holders judged by their heartbeat only). */
export const STALE_MS = 10_000;
/** A heartbeat already older than STALE_MS by our clock is gone once watched not moving this long. */
export const QUIET_CONFIRM_MS = 3 * HEARTBEAT_MS;
/** The main thread checks this often that the lock is still its own. */
const OWNERSHIP_CHECK_MS = 5_000;
const POLL_MS = 100;

export class DataFolderLockError extends Error {
  constructor(
    message: string,
    readonly folder: string,
    readonly holder?: Holder,
  ) {
    super(message);
    this.name = 'DataFolderLockError';
  }
}

export const lockDirOf = (folder: string) => `${resolve(folder)}.lock`;

function procStartTicks(pid: number): string | undefined {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    // Field 2 (the command) is in parentheses and may hold spaces: count from the last ')'.
    return stat.slice(stat.lastIndexOf(')') + 2).split(' ')[19];
  } catch {
    return undefined;
  }
}

function bootId(): string | undefined {
  try {
    return readFileSync('/proc/sys/kernel/random/boot_id', 'utf8').trim();
  } catch {
    return undefined;
  }
}

function pidExists(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (e) {
    return (e as NodeJS.ErrnoException).code === 'EPERM';
  }
}

function readHolder(dir: string): { holder?: Holder; heartbeat?: number } {
  try {
    const file = join(dir, 'holder.json');
    const heartbeat = statSync(file).mtimeMs;
    return { holder: JSON.parse(readFileSync(file, 'utf8')) as Holder, heartbeat };
  } catch {
    return {};
  }
}

/**
 * By process identity, on the same host: why the holder is gone, or `alive`. `heartbeat`: identity cannot
 * be told (another host name; no /proc and the pid exists): the caller watches the heartbeat.
 */
export function judgeByIdentity(holder: Holder): { gone: string } | 'alive' | 'heartbeat' {
  if (holder.hostname !== hostname()) return 'heartbeat';
  const boot = bootId();
  if (holder.boot_id && boot && holder.boot_id !== boot) return { gone: 'the host has restarted since' };
  if (!pidExists(holder.pid)) return { gone: `process ${holder.pid} no longer exists` };
  const ticks = procStartTicks(holder.pid);
  if (holder.start_ticks && ticks) return ticks === holder.start_ticks ? 'alive' : { gone: `process ${holder.pid} is another process now (pid reused)` };
  return 'heartbeat'; // no start time to compare (no /proc): the pid exists, but may be reused
}

/**
 * The heartbeat, in a worker thread of its own: it touches holder.json every HEARTBEAT_MS while the file
 * is still this holder's, whatever the main thread is doing (PGlite runs queries and migrations on it).
 */
const HEARTBEAT_WORKER = `
const { readFileSync, utimesSync } = require('node:fs');
const { file, nonce, every } = require('node:worker_threads').workerData;
setInterval(() => {
  try {
    if (JSON.parse(readFileSync(file, 'utf8')).nonce !== nonce) return;
    const now = new Date();
    utimesSync(file, now, now);
  } catch {}
}, every);
`;

const describe = (folder: string, h: Holder) =>
  `DATA_DIR ${folder} is in use by process ${h.pid}${h.hostname !== hostname() ? ` on ${h.hostname}` : ''} (${h.opener}) since ${h.since}`;

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

const held = new Set<DataFolderLock>();

/** Marks every data folder lock this process holds as closing (on SIGTERM: a restart waits for it instead of being refused). */
export function markDataFoldersClosing(): void {
  for (const lock of held) lock.markClosing();
}

export class DataFolderLock {
  private released = false;
  private readonly ownership: NodeJS.Timeout;
  private readonly heartbeat: Worker;
  private readonly onExit = () => this.release();

  constructor(
    readonly folder: string,
    readonly dir: string,
    private holder: Holder,
    private readonly onLost?: (found: Holder | undefined) => void,
  ) {
    this.heartbeat = new Worker(HEARTBEAT_WORKER, {
      eval: true,
      workerData: { file: join(dir, 'holder.json'), nonce: holder.nonce, every: HEARTBEAT_MS },
      resourceLimits: { maxOldGenerationSizeMb: 8, maxYoungGenerationSizeMb: 1, stackSizeMb: 1 },
      stdout: false,
      stderr: false,
    });
    this.heartbeat.on('error', () => undefined); // a failed heartbeat only makes the lock look stale to other hosts
    this.heartbeat.unref();
    this.ownership = setInterval(() => this.checkOwnership(), OWNERSHIP_CHECK_MS).unref();
    process.on('exit', this.onExit);
    held.add(this);
  }

  get info(): Holder {
    return { ...this.holder };
  }

  /** Still ours? (the lock directory holds our nonce) */
  isHeld(): boolean {
    return !this.released && readHolder(this.dir).holder?.nonce === this.holder.nonce;
  }

  private checkOwnership(): void {
    if (this.released) return;
    const found = readHolder(this.dir).holder;
    if (found?.nonce !== this.holder.nonce) {
      clearInterval(this.ownership);
      this.onLost?.(found);
    }
  }

  markClosing(): void {
    if (this.released || this.holder.state === 'closing' || !this.isHeld()) return;
    this.holder = { ...this.holder, state: 'closing' };
    const tmp = join(this.dir, `holder.${randomBytes(4).toString('hex')}.tmp`);
    try {
      writeFileSync(tmp, JSON.stringify(this.holder));
      const now = new Date();
      utimesSync(tmp, now, now);
      renameSync(tmp, join(this.dir, 'holder.json'));
    } catch {
      rmSync(tmp, { force: true });
    }
  }

  /** Idempotent and synchronous. Call it once the embedded engine has closed (or will never write again). */
  release(): void {
    if (this.released) return;
    this.released = true;
    clearInterval(this.ownership);
    void this.heartbeat.terminate().catch(() => undefined);
    process.removeListener('exit', this.onExit);
    held.delete(this);
    if (readHolder(this.dir).holder?.nonce !== this.holder.nonce) return; // not ours any more: leave it
    const gone = `${this.dir}.released-${process.pid}-${randomBytes(4).toString('hex')}`;
    try {
      renameSync(this.dir, gone);
      rmSync(gone, { recursive: true, force: true });
    } catch {
      /* already gone */
    }
  }
}

function tryCreate(dir: string, holder: Holder): boolean {
  const tmp = `${dir}.new-${process.pid}-${randomBytes(4).toString('hex')}`;
  mkdirSync(tmp);
  try {
    writeFileSync(join(tmp, 'holder.json'), JSON.stringify(holder));
    renameSync(tmp, dir);
    return true;
  } catch (e) {
    const code = (e as NodeJS.ErrnoException).code;
    if (code === 'ENOTEMPTY' || code === 'EEXIST' || code === 'EPERM' || code === 'EISDIR') return false;
    throw e;
  } finally {
    rmSync(tmp, { recursive: true, force: true });
  }
}

/**
 * Moves a gone holder's lock away, unless it turns out to be another's by then (two newcomers judged
 * the same dead holder and one has taken over already): then it is put back.
 */
function takeOver(dir: string, judged: Holder): boolean {
  const moved = `${dir}.stale-${process.pid}-${randomBytes(4).toString('hex')}`;
  try {
    renameSync(dir, moved);
  } catch {
    return false; // gone meanwhile
  }
  if (readHolder(moved).holder?.nonce !== judged.nonce) {
    try {
      renameSync(moved, dir);
    } catch {
      /* a third opener got in between: nothing more to do safely */
    }
    return false;
  }
  rmSync(moved, { recursive: true, force: true });
  return true;
}

/**
 * Takes the lock on `folder` (the embedded database's directory) before anything opens it; throws
 * `DataFolderLockError` when another live process holds it (after waiting for a closing one).
 */
export async function acquireDataFolderLock(folder: string, options: LockOptions = {}): Promise<DataFolderLock> {
  const path = resolve(folder);
  const dir = lockDirOf(path);
  mkdirSync(dirname(dir), { recursive: true });
  const waitMs = options.waitMs ?? DEFAULT_LOCK_WAIT_MS;
  const me: Holder = {
    pid: process.pid,
    start_ticks: procStartTicks(process.pid),
    boot_id: bootId(),
    hostname: hostname(),
    since: new Date().toISOString(),
    state: 'running',
    nonce: randomBytes(12).toString('hex'),
    opener: options.opener ?? basename(process.argv[1] ?? 'node'),
  };
  const staleMs = options.staleMs ?? STALE_MS;
  const started = Date.now();
  let waiting = false;
  let unreadable = 0;
  /** The holder watched: its heartbeat as last seen, when that was first seen (our clock), whether it has moved. */
  let seen: { nonce: string; heartbeat?: number; since: number; moved: boolean } | undefined;
  for (;;) {
    me.since = new Date().toISOString();
    if (tryCreate(dir, me)) return new DataFolderLock(path, dir, me, options.onLost);
    const { holder, heartbeat } = readHolder(dir);
    const elapsed = Date.now() - started;
    if (!holder) {
      // Between a holder's release (rename away) and our read, or a lock directory not made by us.
      if (++unreadable * POLL_MS > 2_000) {
        throw new DataFolderLockError(`DATA_DIR ${path} is locked by ${dir}, which names no holder; if no process uses the folder, remove ${dir}`, path);
      }
    } else {
      const now = Date.now();
      if (seen?.nonce !== holder.nonce) seen = { nonce: holder.nonce, heartbeat, since: now, moved: false };
      else if (heartbeat !== seen.heartbeat) seen = { ...seen, heartbeat, since: now, moved: true };
      const identity = judgeByIdentity(holder);
      let gone = typeof identity === 'object' ? identity.gone : undefined;
      if (identity === 'heartbeat') {
        // Watched not moving for staleMs, or already old by our clock and watched not moving for a few beats.
        const quiet = now - seen.since;
        const old = heartbeat === undefined || now - heartbeat > staleMs;
        if (quiet >= staleMs || (old && quiet >= QUIET_CONFIRM_MS)) {
          gone = holder.hostname !== hostname() ? `no heartbeat from host ${holder.hostname} for ${staleMs} ms` : `process ${holder.pid} exists but has not touched the lock for ${staleMs} ms (pid reused?)`;
        }
      }
      if (gone) {
        if (takeOver(dir, holder)) options.onTakeover?.(holder, gone);
        seen = undefined;
        continue;
      }
      if (holder.nonce === me.nonce) throw new Error(`data folder lock ${dir}: already ours`);
      // A holder alive by its heartbeat alone is refused only once the heartbeat has moved (a dead one's
      // stops instead and is taken over above: no refusal after a kill -9 in another container).
      const decided = identity === 'alive' || seen.moved;
      if (decided && (holder.state === 'closing' ? elapsed >= waitMs : elapsed >= Math.min(RUNNING_GRACE_MS, waitMs))) {
        const tail = holder.state === 'closing' ? `, still closing after ${elapsed} ms (DATA_DIR_LOCK_WAIT_MS=${waitMs})` : '';
        throw new DataFolderLockError(`${describe(path, holder)}${tail}; stop it first`, path, holder);
      }
      if (!waiting && (holder.state === 'closing' || !decided)) {
        waiting = true;
        options.onWait?.(holder, decided ? 'closing' : 'heartbeat');
      }
    }
    await sleep(POLL_MS);
  }
}
