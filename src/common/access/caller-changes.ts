import { Injectable, OnApplicationBootstrap, OnModuleDestroy } from '@nestjs/common';
import { randomBytes } from 'node:crypto';
import { Client, Notification } from 'pg';
import { DataSource } from 'typeorm';
import type { Logger } from 'pino';
import { AppConfig } from '../../config/app-config';
import { appLogger } from '../logger';
import { BoundedMap } from '../bounded-map';
import type { Actor } from './actor';

/** The channel of the change notices (migrations/1764800900000-CallerChangeNotices.ts). */
export const CALLER_CHANGED_CHANNEL = 'caller_changed';
/** How many callers an instance keeps (about 1 kB each). */
const CALLERS_KEPT = 10_000;
/** How long a request waits for its sync before it reads its caller itself. */
const SYNC_WAIT_MS = 250;
/** A sync not back by then: the listening connection is replaced. */
const SYNC_LOST_MS = 5_000;
const RECONNECT_MS = 1_000;
const SYNC_SQL = 'SELECT pg_notify($1, $2)';

interface Kept {
  actor: Actor;
  /** The user row's company (the key of a `company:` notice; the actor's own is null when the company is gone). */
  companyId: string | null;
}

/**
 * The callers this instance has read (by token id), each dropped by the change notice of any row it was
 * read from. `generation` counts the drops: a caller read while a drop happened is not kept, since its
 * row may have been read before that change committed and its notice have come before it was kept.
 */
export class CallerMemory {
  private readonly kept = new BoundedMap<string, Kept>(CALLERS_KEPT);
  generation = 0;

  /** Whether a caller is kept for this token (then a sync decides whether it still holds). */
  has(jti: string): boolean {
    return this.kept.has(jti);
  }

  /** The caller kept for these claims, while the token has not expired. */
  get(claims: { jti: string; sub: string; typ: string }, now = Date.now()): Actor | undefined {
    const k = this.kept.get(claims.jti);
    if (!k) return undefined;
    if (k.actor.id !== claims.sub || k.actor.type !== claims.typ || k.actor.tokenExpiresAt.getTime() <= now) {
      this.kept.delete(claims.jti);
      return undefined;
    }
    return k.actor;
  }

  /** Keeps a caller read since `generation` was taken, unless something was dropped meanwhile. Frozen: requests share it. */
  keep(actor: Actor, companyId: string | null, generation: number): void {
    if (generation !== this.generation) return;
    this.kept.set(actor.jti, { actor: Object.freeze(actor), companyId });
  }

  /** A change notice: `token:<jti>`, `user:<id>`, `admin:<id>`, `company:<id>`; anything else (`*`) drops everything. */
  drop(notice: string): void {
    this.generation++;
    const at = notice.indexOf(':');
    const kind = at > 0 ? notice.slice(0, at) : '';
    const key = notice.slice(at + 1);
    if (kind === 'token') {
      this.kept.delete(key);
      return;
    }
    const matches =
      kind === 'user' ? (k: Kept) => k.actor.kind === 'user' && k.actor.id === key
      : kind === 'admin' ? (k: Kept) => k.actor.kind === 'admin' && k.actor.id === key
      : kind === 'company' ? (k: Kept) => k.actor.kind === 'user' && k.companyId === key
      : undefined;
    if (!matches) return this.clear();
    for (const [jti, k] of this.kept) if (matches(k)) this.kept.delete(jti);
  }

  clear(): void {
    this.generation++;
    this.kept.clear();
  }

  get size(): number {
    return this.kept.size;
  }
}

type Waiter = (synced: boolean) => void;

/**
 * Lets the ActorResolver keep callers without a logout, a revocation or a deactivation ever being missed
 * on any instance (issue #24: such a change takes effect at once everywhere).
 *
 * - Every change to a row the caller's statement reads sends a notice when its transaction commits (the
 *   triggers of migrations/1764800900000-CallerChangeNotices.ts); this instance listens on one connection of
 *   its own and drops what a notice names (`CallerMemory`).
 * - A kept caller is used only after a **sync**: this instance sends a notice to itself on that connection
 *   after the request arrived, and waits for it to come back. PostgreSQL delivers notices in the order their
 *   transactions committed, so when the sync is back, every change committed before the request arrived has
 *   been dropped. One sync serves every request that arrived while the previous one was out.
 * - Anything else reads the caller: no kept caller, the connection down or being replaced (everything kept
 *   is dropped on a loss and again once listening), a sync slower than SYNC_WAIT_MS. With the embedded
 *   database (one process) nothing is kept.
 *
 * Costs: a sync is one statement (`pg_notify`) for all the requests that wait on it, and PostgreSQL wakes
 * every listening session of the database for each notice (docs/performance.md).
 */
@Injectable()
export class CallerChanges implements OnApplicationBootstrap, OnModuleDestroy {
  readonly memory = new CallerMemory();
  private readonly url: string | undefined;
  private readonly log: Logger;
  /** This instance's own channel, for its syncs (also its connection's application_name). */
  readonly channel = `caller_sync_${randomBytes(12).toString('hex')}`;
  private client: Client | null = null;
  private listening = false;
  private stopped = false;
  private reconnect: NodeJS.Timeout | undefined;
  private seq = 0;
  private out: { seq: number; sentAt: number; waiters: Waiter[]; timer: NodeJS.Timeout } | null = null;
  private next: Waiter[] = [];

  constructor(
    config: AppConfig,
    private readonly ds: DataSource,
  ) {
    this.url = config.databaseUrl;
    this.log = appLogger(config).child({ context: 'CallerChanges' });
  }

  /** Whether notices are being received (then callers read now may be kept). */
  get live(): boolean {
    return this.listening;
  }

  onApplicationBootstrap(): void {
    if (this.url) void this.connect();
  }

  async onModuleDestroy(): Promise<void> {
    this.stopped = true;
    clearTimeout(this.reconnect);
    await this.lose(this.client, undefined);
  }

  /**
   * Resolves true once every change committed before this call has been dropped from the memory; false
   * when that cannot be known soon (the caller is then read).
   */
  synced(): Promise<boolean> {
    if (!this.listening) return Promise.resolve(false);
    if (this.out && Date.now() - this.out.sentAt > SYNC_WAIT_MS) return Promise.resolve(false);
    return new Promise<boolean>((resolve) => {
      this.next.push(resolve);
      if (!this.out) this.sync();
    });
  }

  private sync(): void {
    const client = this.client!;
    const seq = ++this.seq;
    const waiters = this.next;
    this.next = [];
    const timer = setTimeout(() => this.late(client, seq), SYNC_WAIT_MS);
    timer.unref();
    this.out = { seq, sentAt: Date.now(), waiters, timer };
    // Through TypeORM's logger, as every other statement: the counts of statements per request include it.
    const params = [this.channel, String(seq)];
    this.ds.logger.logQuery(SYNC_SQL, params);
    client.query(SYNC_SQL, params).catch((e: unknown) => void this.lose(client, e));
  }

  /** A sync is slow: its waiters (and those behind it) read their callers; past SYNC_LOST_MS the connection is replaced. */
  private late(client: Client, seq: number): void {
    if (this.client !== client || this.out?.seq !== seq) return;
    settle(this.out.waiters, false);
    this.out.waiters = [];
    settle(this.next, false);
    this.next = [];
    this.out.timer = setTimeout(() => void this.lose(client, new Error(`no sync back within ${SYNC_LOST_MS} ms`)), SYNC_LOST_MS - SYNC_WAIT_MS);
    this.out.timer.unref();
  }

  private noticed(client: Client, n: Notification): void {
    if (this.client !== client) return;
    if (n.channel === CALLER_CHANGED_CHANNEL) {
      this.memory.drop(n.payload ?? '*');
      return;
    }
    if (n.channel === this.channel && this.out && n.payload === String(this.out.seq)) {
      clearTimeout(this.out.timer);
      const waiters = this.out.waiters;
      this.out = null;
      settle(waiters, true);
      if (this.next.length) this.sync();
    }
  }

  private async connect(): Promise<void> {
    const client = new Client({ connectionString: this.url, application_name: this.channel });
    client.on('error', (e) => void this.lose(client, e));
    client.on('end', () => void this.lose(client, new Error('connection ended')));
    client.on('notification', (n) => this.noticed(client, n));
    this.client = client;
    try {
      await client.connect();
      // A sync carries no data: its commit need not wait for the disk.
      await client.query('SET synchronous_commit = off');
      await client.query(`LISTEN ${CALLER_CHANGED_CHANNEL}`);
      await client.query(`LISTEN ${this.channel}`);
    } catch (e) {
      void this.lose(client, e);
      return;
    }
    if (this.client !== client) return;
    // Nothing kept from before (notices may have been missed while not listening).
    this.memory.clear();
    this.listening = true;
  }

  /** The listening connection is gone (or being closed): nothing kept is used, and a new one is opened. */
  private lose(client: Client | null, error: unknown): Promise<void> {
    if (!client || this.client !== client) return Promise.resolve();
    const wasListening = this.listening;
    this.client = null;
    this.listening = false;
    this.memory.clear();
    if (this.out) {
      clearTimeout(this.out.timer);
      settle(this.out.waiters, false);
      this.out = null;
    }
    settle(this.next, false);
    this.next = [];
    const ended = client.end().catch(() => undefined);
    if (this.stopped) return ended;
    if (wasListening || error) this.log.warn({ msg: 'caller change notices lost; callers are read on every request until listening again', error: error instanceof Error ? error.message : String(error) });
    this.reconnect = setTimeout(() => void this.connect(), RECONNECT_MS);
    this.reconnect.unref();
    return ended;
  }
}

function settle(waiters: Waiter[], synced: boolean): void {
  for (const w of waiters) w(synced);
}
