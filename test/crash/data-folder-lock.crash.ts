import { spawn } from 'node:child_process';
import { mkdtempSync, readdirSync, readFileSync, rmSync, statSync } from 'node:fs';
import { connect, Socket } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { amcheckFindings, Attempt, Load, openSql, prng, ROOT, ServerProcess, seedWorld, sleep, World } from './harness';

/**
 * One process per embedded data folder (issue #30; docs/embedded-database.md), with the built server
 * (`npm run test:crash`) on one DATA_DIR, under concurrent writing clients:
 *
 * 1. a second server on the folder while the first runs: refused at once (exit 75, the folder and the
 *    holder named), nothing of the folder touched; so is the migration CLI (dist/ormconfig.js);
 * 2. a restart racing the previous close (the new server started, the old one sent SIGTERM while a request
 *    keeps it draining): the new one waits for the lock, then opens the folder;
 * 3. kill -9 under load, then an immediate start: not blocked by the lock left behind.
 *
 * After 1 and after 2-3 (3 kills the server 2 started): every b-tree index passes amcheck and every
 * acknowledged write is there. About 30 s on an idle machine.
 */

const random = prng(Number(process.env.CRASH_SEED ?? 30));
const CLIENTS = 6;

interface Exit {
  code: number | null;
  stderr: string;
  ms: number;
}

/** Runs `node <args>` to its end (it is expected to be refused). */
function runToExit(args: string[], env: Record<string, string>, timeoutMs = 60_000): Promise<Exit> {
  const started = Date.now();
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, args, { cwd: ROOT, env: { PATH: process.env.PATH ?? '', LOG_LEVEL: 'info', ...env }, stdio: ['ignore', 'pipe', 'pipe'] });
    let stderr = '';
    child.stdout.resume();
    child.stderr.on('data', (d: Buffer) => (stderr += d.toString()));
    const timer = setTimeout(() => {
      child.kill('SIGKILL');
      reject(new Error(`node ${args.join(' ')} still running after ${timeoutMs} ms:\n${stderr}`));
    }, timeoutMs);
    child.once('exit', (code) => {
      clearTimeout(timer);
      resolve({ code, stderr, ms: Date.now() - started });
    });
  });
}

/** Every file of the folder with its size and mtime (the refused opener must change none of them). */
function snapshot(dir: string): Record<string, string> {
  const out: Record<string, string> = {};
  const walk = (d: string) => {
    for (const e of readdirSync(d, { withFileTypes: true })) {
      const p = join(d, e.name);
      if (e.isDirectory()) walk(p);
      else {
        const s = statSync(p);
        out[p.slice(dir.length)] = `${s.size}:${s.mtimeMs}`;
      }
    }
  };
  walk(dir);
  return out;
}

/** A request whose body never comes: the server counts it in progress and drains it until its deadline (7 s). */
function hangingRequest(port: number): Promise<Socket> {
  return new Promise((resolve, reject) => {
    const s = connect(port, '127.0.0.1', () => {
      s.write('POST /api/v1/customer/orders HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\nContent-Length: 1000\r\n\r\n{');
      resolve(s);
    });
    s.on('error', () => undefined);
    s.once('error', reject);
  });
}

describe('one process per embedded data folder (the built server)', () => {
  const dataDir = mkdtempSync(join(tmpdir(), 'haulops-lock-'));
  const pgdata = join(dataDir, 'pgdata');
  const env = {
    DATA_DIR: dataDir,
    DATABASE_URL: '',
    JWT_SECRET: 'lock-test-secret-'.padEnd(48, 'x'),
    OUTBOX_RELAY_ENABLED: 'false',
    SCHEDULER_ENABLED: 'false',
    PASSWORD_HASH_COST: '10',
  };
  const attempts: Attempt[] = [];
  let world: World;
  let server: ServerProcess | undefined;

  const loadUntilAcks = async (load: Load, acks: number) => {
    for (const until = Date.now() + 30_000; load.attempts.filter((a) => a.outcome === 'ack').length < acks && Date.now() < until; ) await sleep(20);
  };

  const stop = async (s: ServerProcess) => {
    s.kill('SIGTERM');
    const exit = await s.exited;
    expect(exit.code).toBe(0);
  };

  /** The folder (no server on it): amcheck on every b-tree index, every acknowledged write there. */
  const check = async () => {
    const sql = await openSql({ dataDir });
    try {
      expect(await amcheckFindings(sql)).toEqual([]);
      await sql.query('DROP EXTENSION amcheck');
      const orders = new Map((await sql.query<{ id: string; status: string }>(`SELECT id, status FROM orders WHERE company_id = $1`, [world.companyId])).map((o) => [o.id, o.status]));
      const acked = attempts.filter((a) => a.outcome === 'ack');
      expect(acked.length).toBeGreaterThan(0);
      const missing = acked.filter((a) => !orders.has(a.orderId!)).map((a) => `${a.op} ${a.marker} ${a.orderId}`);
      const notApproved = acked.filter((a) => a.op === 'approve' && orders.get(a.orderId!) !== 'approved').map((a) => `${a.marker} ${a.orderId}: ${orders.get(a.orderId!)}`);
      expect(missing).toEqual([]);
      expect(notApproved).toEqual([]);
    } finally {
      await sql.close();
    }
  };

  beforeAll(async () => {
    server = await ServerProcess.start(env);
    world = await seedWorld(server.port, 3);
  });

  afterAll(async () => {
    if (server && server.child.exitCode === null && server.child.signalCode === null) {
      server.kill('SIGKILL');
      await server.exited;
    }
    rmSync(dataDir, { recursive: true, force: true });
  });

  it('a second server, and the migration CLI, on a folder in use: refused at once (exit 75, folder and holder named), nothing touched', async () => {
    const first = server!;
    const load = new Load(first.port, world, 'two', CLIENTS, random).start();
    await loadUntilAcks(load, 10);
    attempts.push(...(await load.stop()));
    // The first server is idle now (relay and scheduler off): the folder must stay exactly as it is (the lock
    // directory next to it is the first server's: its heartbeat touches holder.json; its content must not change).
    await sleep(500);
    const before = snapshot(pgdata);
    const holderBefore = readFileSync(join(dataDir, 'pgdata.lock', 'holder.json'), 'utf8');

    const second = await runToExit(['dist/src/main.js'], { ...env, PORT: '0' });
    expect(second.code).toBe(75);
    expect(second.stderr).toContain(`DATA_DIR ${pgdata} is in use by process ${first.child.pid} (server) since `);
    expect(second.stderr).toContain('; stop it first');

    const cli = await runToExit(['node_modules/typeorm/cli.js', 'migration:run', '-d', 'dist/ormconfig.js'], env);
    expect(cli.code).not.toBe(0);
    expect(cli.stderr).toContain(`DATA_DIR ${pgdata} is in use by process ${first.child.pid} (server) since `);

    expect(snapshot(pgdata)).toEqual(before);
    expect(readFileSync(join(dataDir, 'pgdata.lock', 'holder.json'), 'utf8')).toBe(holderBefore);
    process.stdout.write(`second server refused in ${second.ms} ms (process start included); migration CLI in ${cli.ms} ms\n`);

    // The first one still works, on an intact folder.
    const more = new Load(first.port, world, 'two-after', CLIENTS, random).start();
    await loadUntilAcks(more, 5);
    attempts.push(...(await more.stop()));
    await stop(first);
    await check();
  });

  it('a restart racing the previous close waits for its lock, then opens the folder', async () => {
    const old = await ServerProcess.start(env);
    server = old;
    const load = new Load(old.port, world, 'race', CLIENTS, random).start();
    await loadUntilAcks(load, 10);
    const hanging = await hangingRequest(old.port);
    // The new server is started first; the old one gets SIGTERM once the new one's module graph is being
    // built (its first InstanceLoader line: the lock is tried within about a second of it). The old one then
    // stays `closing` for the drain's 7 s (the hanging request), and the new one is certain to meet it so,
    // however slow the machine (a `running` holder gets the 1 s grace to turn `closing`).
    let newcomer: ServerProcess | undefined;
    const next = ServerProcess.start(env, 90_000, (s) => (newcomer = s));
    for (const until = Date.now() + 60_000; !newcomer?.logs.some((l) => l.context === 'InstanceLoader') && Date.now() < until; ) await sleep(5);
    old.kill('SIGTERM');
    const oldExit = await old.exited;
    attempts.push(...(await load.stop()));
    hanging.destroy();
    server = await next;
    expect(oldExit.code).toBe(0);
    const waited = server.logs.find((l) => l.msg === 'data folder in use by a process that is closing; waiting');
    expect(waited).toMatchObject({ holder_pid: old.child.pid });
    // The new one took the lock only once the old one had closed the folder.
    // (the line logged once PGlite has closed, just before the lock is released; `shutdown finished` comes after the release)
    const closed = old.logs.find((l) => l.msg === 'embedded database closed; releasing its data folder')!;
    const holder = JSON.parse(readFileSync(join(dataDir, 'pgdata.lock', 'holder.json'), 'utf8'));
    expect(holder.pid).toBe(server.child.pid);
    expect(Date.parse(holder.since)).toBeGreaterThanOrEqual(Date.parse(String(closed.time)));
    process.stdout.write(`restart racing a close: waited ${Date.parse(holder.since) - Date.parse(String(waited!.time))} ms for the lock\n`);
    // The new server writes on the folder the old one closed (checked with amcheck after the next test,
    // which goes on with this server: one server start less).
    const after = new Load(server.port, world, 'race-after', CLIENTS, random).start();
    await loadUntilAcks(after, 5);
    attempts.push(...(await after.stop()));
  });

  it('kill -9 under load, then an immediate start: not blocked by the lock left behind', async () => {
    const killed = server!;
    const load = new Load(killed.port, world, 'kill', CLIENTS, random).start();
    await loadUntilAcks(load, 20);
    killed.kill('SIGKILL');
    await killed.exited;
    const restartAt = Date.now();
    server = await ServerProcess.start(env);
    const restartMs = Date.now() - restartAt;
    attempts.push(...(await load.stop()));
    expect(server.logs.find((l) => l.msg === 'data folder lock taken over from a process that is gone')).toMatchObject({
      holder_pid: killed.child.pid,
      why: `process ${killed.child.pid} no longer exists`,
    });
    // Taken over at once, not waited out (the start's duration is the machine's: not asserted).
    expect(server.logs.filter((l) => String(l.msg).includes('waiting'))).toEqual([]);
    process.stdout.write(`restart after kill -9: listening in ${restartMs} ms\n`);
    // Writes acknowledged before the kill are checked below; cut ones may or may not have committed.
    const after = new Load(server.port, world, 'kill-after', CLIENTS, random).start();
    await loadUntilAcks(after, 5);
    attempts.push(...(await after.stop()));
    await stop(server);
    await check();
    expect(readdirSync(dataDir).filter((f) => f.startsWith('pgdata.lock'))).toEqual([]);
  });
});
