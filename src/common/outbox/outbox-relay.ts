import { BeforeApplicationShutdown, Injectable, Logger, OnApplicationBootstrap } from '@nestjs/common';
import { DiscoveryService } from '@nestjs/core';
import { DataSource, EntityManager } from 'typeorm';
import { AppConfig } from '../../config/app-config';
import { EventHandler, eventSubscriberMeta, RelayedEvent } from './event-subscriber';
import { runUnit } from '../../database/unit-of-work';

/** What one batch did. */
export interface RelayRunResult {
  /** Events claimed by this batch. */
  claimed: number;
  /** Of them, marked published (every subscriber processed it or is dead; or it has no subscriber). */
  published: number;
  /** Deliveries (event × subscriber) that succeeded, failed and will be retried, or were given up. */
  processed: number;
  retried: number;
  dead: number;
}

interface Subscriber {
  name: string;
  handler: EventHandler;
  /** Called with no transaction open (`@EventSubscriber({ outside: true })`). */
  outside: boolean;
}

export interface EventRow {
  id: string;
  type: string;
  aggregate_type: string;
  aggregate_id: string;
  company_id: string | null;
  actor_id: string | null;
  payload: Record<string, unknown>;
  created_at: Date;
}

type Outcome = { kind: 'processed' | 'finished_before' | 'not_due' } | { kind: 'retried'; attempt: number; error: string; delayMs: number } | { kind: 'dead'; attempt: number; error: string };

const errorText = (e: unknown): string => (e instanceof Error ? `${e.name}: ${e.message}` : String(e)).slice(0, 2000);

/**
 * Reads the transactional outbox (`outbox_events`) and hands each event to the in-process subscribers
 * of its type (`@EventSubscriber` providers, found with Nest's DiscoveryService).
 *
 * - Claim: one short transaction takes up to `batch size` due, unpublished rows with
 *   `FOR UPDATE SKIP LOCKED` and leases them (`claimed_until`), so any number of instances can run it:
 *   each gets different rows. A relay that dies mid-batch leaves its lease (OUTBOX_RELAY_LEASE_MS; renewed while a live relay is still delivering its batch), which another takes over
 *   once it has passed.
 * - Delivery: one transaction per (event, subscriber). It locks that delivery's row, skips it when it is
 *   already processed or dead, runs `handle(event, manager)` in a savepoint and records `processed` in
 *   the same transaction: what the subscriber does through the manager happens exactly once. Work the
 *   handler handed to `after` runs once that transaction committed, with none open (provider calls).
 * - Failure: the savepoint is rolled back; the try is counted and retried after base × 2^(n-1)
 *   (capped); after the last allowed try the delivery is `dead` and logged at error level.
 * - Publish: the event is published when every subscriber processed it or is dead (at once when it has
 *   none); otherwise it becomes due again at its earliest retry.
 *
 * Every transaction is short and uses only its own manager (the embedded database has one connection).
 */
@Injectable()
export class OutboxRelay implements OnApplicationBootstrap, BeforeApplicationShutdown {
  private readonly logger = new Logger('OutboxRelay');
  private byType?: Map<string, Subscriber[]>;
  private timer?: NodeJS.Timeout;
  private polling = false;
  /** The current (or last) batch; batches of one relay never overlap. */
  private tail: Promise<unknown> = Promise.resolve();

  constructor(
    private readonly ds: DataSource,
    private readonly config: AppConfig,
    private readonly discovery: DiscoveryService,
  ) {}

  onApplicationBootstrap(): void {
    this.subscribers(); // a misdeclared subscriber fails the start, not the first event
    if (this.config.outboxRelayEnabled) this.start();
  }

  async beforeApplicationShutdown(): Promise<void> {
    await this.stop();
  }

  /** Polls every `outboxRelayPollMs` (at once again while batches come back full). */
  start(): void {
    if (this.polling) return;
    this.polling = true;
    this.schedule(0);
  }

  /** No new polls; resolves when the current batch has finished. */
  async stop(): Promise<void> {
    this.polling = false;
    if (this.timer) clearTimeout(this.timer);
    this.timer = undefined;
    await this.tail.catch(() => undefined);
  }

  /** Processes one batch (after the current one, if any). Rejects when the database fails mid-batch. */
  runOnce(): Promise<RelayRunResult> {
    const run = this.tail.catch(() => undefined).then(() => this.batch());
    this.tail = run;
    return run;
  }

  /** The subscribers' names by event type. */
  subscriberNames(): Record<string, string[]> {
    return Object.fromEntries([...this.subscribers()].map(([type, subs]) => [type, subs.map((s) => s.name)]));
  }

  private schedule(delayMs: number): void {
    this.timer = setTimeout(() => void this.poll(), delayMs);
    this.timer.unref();
  }

  private async poll(): Promise<void> {
    this.timer = undefined;
    if (!this.polling) return;
    let next = this.config.outboxRelayPollMs;
    try {
      const r = await this.runOnce();
      if (r.claimed >= this.config.outboxRelayBatchSize) next = 0;
    } catch (e) {
      this.logger.error({ msg: 'outbox relay batch failed', error: errorText(e) });
    }
    if (this.polling) this.schedule(next);
  }

  private async batch(): Promise<RelayRunResult> {
    const result: RelayRunResult = { claimed: 0, published: 0, processed: 0, retried: 0, dead: 0 };
    const byType = this.subscribers();
    const events = await this.claim(byType);
    result.claimed = events.length;
    let leased = Date.now();
    for (const [i, event] of events.entries()) {
      // A batch that takes long (slow webhook receivers) keeps its lease: renewed for the rest of the batch
      // once a third of it has passed, so no other relay takes over events this one is still delivering.
      if (Date.now() - leased > this.config.outboxRelayLeaseMs / 3) {
        await this.renewLease(events.slice(i).map((e) => e.id));
        leased = Date.now();
      }
      const subs = byType.get(event.type);
      if (!subs) {
        result.published++; // published by the claim
        continue;
      }
      for (const sub of subs) {
        const outcome = await this.deliver(event, sub);
        if (outcome === 'processed' || outcome === 'retried' || outcome === 'dead') result[outcome]++;
      }
      if (await this.finalize(event, subs)) result.published++;
    }
    return result;
  }

  /** Extends the lease of the claimed events not yet finished (OUTBOX_RELAY_LEASE_MS from now). */
  private async renewLease(ids: string[]): Promise<void> {
    await this.ds.query(
      `UPDATE outbox_events SET claimed_until = now() + $2::int * interval '1 millisecond' WHERE id = ANY($1::uuid[]) AND published_at IS NULL AND claimed_until IS NOT NULL`,
      [ids, this.config.outboxRelayLeaseMs],
    );
  }

  /** Leases a batch of due events; those without a subscriber are published at once. */
  private claim(byType: Map<string, Subscriber[]>): Promise<EventRow[]> {
    return runUnit(this.ds, async (m) => {
      const rows: EventRow[] = await m.query(
        `WITH claimed AS (
           UPDATE outbox_events SET claimed_until = now() + $2::int * interval '1 millisecond'
            WHERE id IN (SELECT id FROM outbox_events
                          WHERE published_at IS NULL
                            AND (claimed_until IS NULL OR claimed_until <= now())
                            AND (next_attempt_at IS NULL OR next_attempt_at <= now())
                          ORDER BY created_at, id
                          LIMIT $1
                          FOR UPDATE SKIP LOCKED)
           RETURNING id, type, aggregate_type, aggregate_id, company_id, actor_id, payload, created_at)
         SELECT * FROM claimed ORDER BY created_at, id`,
        [this.config.outboxRelayBatchSize, this.config.outboxRelayLeaseMs],
      );
      const unsubscribed = rows.filter((r) => !byType.has(r.type)).map((r) => r.id);
      if (unsubscribed.length) {
        await m.query(`UPDATE outbox_events SET published_at = now(), claimed_until = NULL, next_attempt_at = NULL WHERE id = ANY($1::uuid[])`, [unsubscribed]);
      }
      return rows;
    });
  }

  /** One event to one subscriber: in one transaction with its delivery record, or around it for an `outside` subscriber. */
  private async deliver(event: EventRow, sub: Subscriber): Promise<Outcome['kind']> {
    const outcome = sub.outside ? await this.deliverOutside(event, sub) : await this.deliverInside(event, sub);
    const about = { event_id: event.id, event_type: event.type, subscriber: sub.name };
    if (outcome.kind === 'dead') {
      this.logger.error({ msg: 'outbox delivery dead', ...about, attempts: outcome.attempt, last_error: outcome.error });
    } else if (outcome.kind === 'retried') {
      this.logger.warn({ msg: 'outbox delivery failed; will retry', ...about, attempt: outcome.attempt, retry_in_ms: outcome.delayMs, error: outcome.error });
    }
    return outcome.kind;
  }

  /** The handler's work and the record that it was done commit together: exactly once. */
  private async deliverInside(event: EventRow, sub: Subscriber): Promise<Outcome> {
    const key = [event.id, sub.name];
    const afterCommit: (() => Promise<unknown>)[] = [];
    const outcome = await runUnit(this.ds, async (m): Promise<Outcome> => {
      const due = await this.lockDue(m, key);
      if (typeof due !== 'number') return due;
      try {
        await runUnit(this.ds, async (sm) => {
          await sub.handler.handle(relayedEvent(event, due), sm, (work) => afterCommit.push(work));
        });
      } catch (e) {
        afterCommit.length = 0;
        return this.recordFailure(m, key, due, e);
      }
      return this.recordProcessed(m, key, due);
    });
    if (outcome.kind === 'processed') {
      for (const work of afterCommit) {
        await work().catch((e: unknown) => this.logger.error({ msg: 'outbox after-commit work failed', event_id: event.id, event_type: event.type, subscriber: sub.name, error: errorText(e) }));
      }
    }
    return outcome;
  }

  /**
   * Reserve, call, settle: the delivery is claimed in a short transaction (due again only after the
   * lease, so no other relay runs it meanwhile), the handler runs with no transaction open and no row
   * locked, and its outcome is recorded in another short transaction. At least once (a crash between
   * the call and the record runs it again after the lease).
   */
  private async deliverOutside(event: EventRow, sub: Subscriber): Promise<Outcome> {
    const key = [event.id, sub.name];
    const claimed = await runUnit(this.ds, async (m): Promise<Outcome | number> => {
      const due = await this.lockDue(m, key);
      if (typeof due !== 'number') return due;
      await m.query(`UPDATE outbox_deliveries SET next_attempt_at = now() + $3::int * interval '1 millisecond' WHERE event_id = $1 AND subscriber = $2`, [...key, this.config.outboxRelayLeaseMs]);
      return due;
    });
    if (typeof claimed !== 'number') return claimed;
    let failure: unknown;
    try {
      await sub.handler.handle(relayedEvent(event, claimed), this.ds.manager, () => {
        throw new Error(`${sub.name} runs outside any transaction: do the work in handle(), not in after()`);
      });
    } catch (e) {
      failure = e ?? new Error('failed');
    }
    return runUnit(this.ds, (m) => (failure === undefined ? this.recordProcessed(m, key, claimed) : this.recordFailure(m, key, claimed, failure)));
  }

  /** Locks the delivery's row (serialising two relays on it, possible only after a lease ran out); its attempt number when it is due. */
  private async lockDue(m: EntityManager, key: string[]): Promise<Outcome | number> {
    await m.query(`INSERT INTO outbox_deliveries (event_id, subscriber) VALUES ($1, $2) ON CONFLICT (event_id, subscriber) DO NOTHING`, key);
    const [d] = await m.query<{ status: 'pending' | 'processed' | 'dead'; attempts: number; due: boolean }[]>(
      `SELECT status, attempts, (next_attempt_at IS NULL OR next_attempt_at <= now()) AS due
         FROM outbox_deliveries WHERE event_id = $1 AND subscriber = $2 FOR UPDATE`,
      key,
    );
    if (d.status !== 'pending') return { kind: 'finished_before' };
    if (!d.due) return { kind: 'not_due' };
    return Number(d.attempts) + 1;
  }

  private async recordProcessed(m: EntityManager, key: string[], attempt: number): Promise<Outcome> {
    await m.query(
      `UPDATE outbox_deliveries SET status = 'processed', attempts = $3, last_attempt_at = now(), next_attempt_at = NULL, finished_at = now()
        WHERE event_id = $1 AND subscriber = $2`,
      [...key, attempt],
    );
    return { kind: 'processed' };
  }

  /** A failed try: retried after base × 2^(n-1), or dead after the last allowed one. */
  private async recordFailure(m: EntityManager, key: string[], attempt: number, e: unknown): Promise<Outcome> {
    const error = errorText(e);
    if (attempt >= this.config.outboxRelayMaxAttempts) {
      await m.query(
        `UPDATE outbox_deliveries SET status = 'dead', attempts = $3, last_error = $4, last_attempt_at = now(), next_attempt_at = NULL, finished_at = now()
          WHERE event_id = $1 AND subscriber = $2`,
        [...key, attempt, error],
      );
      return { kind: 'dead', attempt, error };
    }
    const delayMs = this.retryDelayMs(attempt);
    await m.query(
      `UPDATE outbox_deliveries SET attempts = $3, last_error = $4, last_attempt_at = now(), next_attempt_at = now() + $5::int * interval '1 millisecond'
        WHERE event_id = $1 AND subscriber = $2`,
      [...key, attempt, error, delayMs],
    );
    return { kind: 'retried', attempt, error, delayMs };
  }

  /** Publishes the event when every subscriber is done with it, else makes it due at its earliest retry; ends the lease. */
  private async finalize(event: EventRow, subs: Subscriber[]): Promise<boolean> {
    const rows: { published: boolean }[] = await this.ds.query(
      `WITH d AS (
         SELECT count(*) FILTER (WHERE status <> 'pending') AS finished, min(next_attempt_at) FILTER (WHERE status = 'pending') AS next
           FROM outbox_deliveries WHERE event_id = $1 AND subscriber = ANY($2::text[])),
       u AS (
         UPDATE outbox_events e
            SET claimed_until = NULL,
                next_attempt_at = CASE WHEN d.finished = $3 THEN NULL ELSE d.next END,
                published_at = CASE WHEN d.finished = $3 THEN now() END
           FROM d
          WHERE e.id = $1 AND e.published_at IS NULL
          RETURNING e.published_at IS NOT NULL AS published)
       SELECT published FROM u`,
      [event.id, subs.map((s) => s.name), subs.length],
    );
    return rows[0]?.published === true;
  }

  /** The wait after the n-th failed try: base × 2^(n-1), at most `outboxRelayRetryMaxMs`. */
  private retryDelayMs(attempt: number): number {
    return Math.min(this.config.outboxRelayRetryBaseMs * 2 ** (attempt - 1), this.config.outboxRelayRetryMaxMs);
  }

  /** Finds the `@EventSubscriber` providers once; two subscribers with one name fail. */
  private subscribers(): Map<string, Subscriber[]> {
    if (this.byType) return this.byType;
    const byName = new Map<string, unknown>();
    const byType = new Map<string, Subscriber[]>();
    for (const wrapper of this.discovery.getProviders()) {
      const instance: unknown = wrapper.instance;
      if (!instance || typeof instance !== 'object') continue;
      const meta = eventSubscriberMeta(instance.constructor);
      if (!meta) continue;
      const name = meta.name ?? instance.constructor.name;
      if (!wrapper.isDependencyTreeStatic()) throw new Error(`Event subscriber ${name} must be a singleton provider`);
      if (typeof (instance as Partial<EventHandler>).handle !== 'function') throw new Error(`Event subscriber ${name} has no handle(event, manager) method`);
      if (byName.has(name)) {
        if (byName.get(name) === instance) continue;
        throw new Error(`Two event subscribers are named ${name}; give one @EventSubscriber({ name, events })`);
      }
      byName.set(name, instance);
      for (const type of new Set(meta.events)) {
        byType.set(type, [...(byType.get(type) ?? []), { name, handler: instance as EventHandler, outside: meta.outside === true }]);
      }
    }
    this.byType = byType;
    return byType;
  }
}

/** The row as its subscribers see it; recordEvents wrote it, so its payload is its type's. */
export function relayedEvent(row: EventRow, attempt: number): RelayedEvent {
  return {
    id: row.id,
    type: row.type,
    aggregateType: row.aggregate_type,
    aggregateId: row.aggregate_id,
    companyId: row.company_id,
    actorId: row.actor_id,
    payload: row.payload,
    createdAt: new Date(row.created_at),
    attempt,
  } as RelayedEvent;
}
