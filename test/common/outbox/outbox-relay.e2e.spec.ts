import { Injectable, Logger, Module } from '@nestjs/common';
import { DiscoveryService } from '@nestjs/core';
import { Client } from 'pg';
import { EntityManager } from 'typeorm';
import { loadConfig } from '../../../src/config/app-config';
import { EventHandler, EventSubscriber, RelayedEvent } from '../../../src/common/outbox/event-subscriber';
import { recordEvents } from '../../../src/common/outbox/outbox';
import { OutboxRelay, RelayRunResult } from '../../../src/common/outbox/outbox-relay';
import { companyActor } from '../../support/actors';
import { startTestApp, TestApp } from '../../support/test-app';
import { waitFor } from '../../support/wait-for';

jest.setTimeout(120_000);

// Test-only events, added to the catalogue for the tests' compilation only.
declare module '../../../src/common/outbox/event-catalogue' {
  interface EventCatalogue {
    'test.pinged': { n: number };
    'test.flaky': { n: number };
    'test.unheard': { n: number };
    'test.called': { n: number };
  }
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** Shared by every app instance of this file: what the subscribers were asked to do, and saw. */
const control = {
  /** `n` values on which CrashySubscriber fails once (after writing, so that its write must roll back). */
  failOnce: new Set<number>(),
  /** Called at the start of every LedgerSubscriber call. */
  onLedger: undefined as undefined | ((e: RelayedEvent<'test.pinged' | 'company.created'>, m: EntityManager) => Promise<void> | void),
  /** Whether the outside subscriber's manager had a transaction open, per call. */
  outsideSawTransaction: [] as boolean[],
  /** Called at the start of every OutsideSubscriber call (while no transaction is open). */
  onOutside: undefined as undefined | ((e: RelayedEvent<'test.called'>) => Promise<void> | void),
  /** Every handler call, committed or not: subscriber → event ids. */
  calls: new Map<string, string[]>(),
};
function called(sub: string, id: string) {
  control.calls.set(sub, [...(control.calls.get(sub) ?? []), id]);
}
const callsOf = (sub: string) => control.calls.get(sub) ?? [];

/** The subscribers' committed work: one ledger row per (event, subscriber) run that committed. */
async function ledger(m: EntityManager, sub: string, e: RelayedEvent) {
  await m.query(`INSERT INTO relay_test_ledger (event_id, subscriber, attempt) VALUES ($1, $2, $3)`, [e.id, sub, e.attempt]);
}

@Injectable()
@EventSubscriber('test.pinged', 'company.created')
class LedgerSubscriber implements EventHandler<'test.pinged' | 'company.created'> {
  async handle(event: RelayedEvent<'test.pinged' | 'company.created'>, m: EntityManager) {
    called('LedgerSubscriber', event.id);
    await control.onLedger?.(event, m);
    await ledger(m, 'LedgerSubscriber', event);
  }
}

@Injectable()
@EventSubscriber('test.pinged')
class CrashySubscriber implements EventHandler<'test.pinged'> {
  async handle(event: RelayedEvent<'test.pinged'>, m: EntityManager) {
    called('CrashySubscriber', event.id);
    await ledger(m, 'CrashySubscriber', event);
    if (control.failOnce.delete(event.payload.n)) throw new Error(`crashed on ${event.payload.n}`);
  }
}

@Injectable()
@EventSubscriber('test.flaky')
class FlakySubscriber implements EventHandler<'test.flaky'> {
  async handle(event: RelayedEvent<'test.flaky'>, m: EntityManager) {
    called('FlakySubscriber', event.id);
    await ledger(m, 'FlakySubscriber', event);
    throw new Error(`flaky #${event.attempt}`);
  }
}

@Injectable()
@EventSubscriber({ name: 'flaky-bystander', events: ['test.flaky'] })
class BystanderSubscriber implements EventHandler<'test.flaky'> {
  async handle(event: RelayedEvent<'test.flaky'>, m: EntityManager) {
    called('flaky-bystander', event.id);
    await ledger(m, 'flaky-bystander', event);
  }
}

/** An `outside` subscriber: records whether a transaction was open on its connection while it ran. */
@Injectable()
@EventSubscriber({ name: 'outside-caller', events: ['test.called'], outside: true })
class OutsideSubscriber implements EventHandler<'test.called'> {
  async handle(event: RelayedEvent<'test.called'>, m: EntityManager) {
    called('outside-caller', event.id);
    control.outsideSawTransaction.push(m.queryRunner?.isTransactionActive ?? false);
    await control.onOutside?.(event);
    await ledger(m, 'outside-caller', event);
    if (control.failOnce.delete(event.payload.n)) throw new Error(`outside call failed on ${event.payload.n}`);
  }
}

@Module({ providers: [LedgerSubscriber, CrashySubscriber, FlakySubscriber, BystanderSubscriber, OutsideSubscriber] })
class RelayProbeModule {}

const MAX_ATTEMPTS = 4;
const RETRY_BASE_MS = 60_000;
const BATCH = 10;
const relayOptions = {
  modules: [RelayProbeModule],
  configure: (c: TestApp['config']) => {
    c.outboxRelayMaxAttempts = MAX_ATTEMPTS;
    c.outboxRelayRetryBaseMs = RETRY_BASE_MS;
    c.outboxRelayBatchSize = BATCH;
    c.outboxRelayPollMs = 20;
  },
};

/** Records `count` events of a type, `perTx` per transaction. */
async function record(t: TestApp, type: 'test.pinged' | 'test.flaky' | 'test.unheard' | 'test.called', count: number, perTx = 50): Promise<string[]> {
  for (let from = 0; from < count; from += perTx) {
    await t.ds.transaction((m) =>
      recordEvents(m, ...Array.from({ length: Math.min(perTx, count - from) }, (_, i) => ({ type, aggregateType: 'test', aggregateId: '00000000-0000-4000-8000-000000000001', payload: { n: from + i + 1 } }))),
    );
  }
  const rows: { id: string }[] = await t.ds.query(`SELECT id FROM outbox_events WHERE type = $1 ORDER BY created_at, id`, [type]);
  return rows.map((r) => r.id);
}

/** Runs batches until one claims nothing. */
async function drain(relay: OutboxRelay): Promise<RelayRunResult> {
  const total: RelayRunResult = { claimed: 0, published: 0, processed: 0, retried: 0, dead: 0 };
  for (;;) {
    const r = await relay.runOnce();
    for (const k of Object.keys(total) as (keyof RelayRunResult)[]) total[k] += r[k];
    if (r.claimed === 0) return total;
  }
}

/** Committed ledger rows per (subscriber, event). */
async function ledgerCounts(t: TestApp): Promise<Map<string, number>> {
  const rows: { subscriber: string; event_id: string; n: number }[] = await t.ds.query(`SELECT subscriber, event_id, count(*)::int AS n FROM relay_test_ledger GROUP BY 1, 2`);
  return new Map(rows.map((r) => [`${r.subscriber} ${r.event_id}`, r.n]));
}

/** Every event delivered exactly once to each of the subscribers (committed work). */
async function expectExactlyOnce(t: TestApp, ids: string[], subscribers: string[]) {
  const counts = await ledgerCounts(t);
  const expected = new Map(ids.flatMap((id) => subscribers.map((s) => [`${s} ${id}`, 1] as const)));
  expect(counts).toEqual(expected);
}

async function unpublished(t: TestApp): Promise<number> {
  const [{ n }] = await t.ds.query(`SELECT count(*)::int AS n FROM outbox_events WHERE published_at IS NULL`);
  return n;
}

/** As if the retry delays had passed. */
async function retriesDue(t: TestApp) {
  await t.ds.query(`UPDATE outbox_deliveries SET next_attempt_at = now() - interval '1 millisecond' WHERE next_attempt_at IS NOT NULL`);
  await t.ds.query(`UPDATE outbox_events SET next_attempt_at = now() - interval '1 millisecond' WHERE next_attempt_at IS NOT NULL`);
}

/** As if the leases of a relay that died had run out. */
async function leasesExpired(t: TestApp) {
  await t.ds.query(`UPDATE outbox_events SET claimed_until = now() - interval '1 millisecond' WHERE claimed_until IS NOT NULL`);
}

describe('outbox relay', () => {
  let t: TestApp;
  let relay: OutboxRelay;

  beforeAll(async () => {
    t = await startTestApp(relayOptions);
    relay = t.app.get(OutboxRelay);
    await t.ds.query(`CREATE TABLE relay_test_ledger (event_id uuid NOT NULL, subscriber text NOT NULL, attempt int NOT NULL)`);
  });
  afterAll(async () => t?.close());

  beforeEach(async () => {
    await t.ds.query(`TRUNCATE outbox_events, outbox_deliveries, relay_test_ledger`);
    control.failOnce.clear();
    control.onLedger = undefined;
    control.onOutside = undefined;
    control.outsideSawTransaction.length = 0;
    control.calls.clear();
  });
  afterEach(() => jest.restoreAllMocks());

  it('finds the @EventSubscriber providers by event type', () => {
    const names = relay.subscriberNames();
    // The test's own subscribers, exactly.
    expect(names['test.pinged']).toEqual(['LedgerSubscriber', 'CrashySubscriber']);
    expect(names['test.flaky']).toEqual(['FlakySubscriber', 'flaky-bystander']);
    expect(names['company.created']).toEqual(['LedgerSubscriber']);
    // Some of the product's own, by their stable names (payments: refunds of cancelled paid orders, credits
    // of overpaid ones; outbound webhooks; notifications; live push; report counters).
    expect(names['order.cancelled']).toEqual(expect.arrayContaining(['payments.refund-cancelled-order', 'outbound-webhooks']));
    expect(names['order.completed']).toEqual(expect.arrayContaining(['payments.credit-overpaid-order', 'outbound-webhooks']));
    for (const e of ['order.placed', 'order.approved', 'order.rejected', 'order.scheduled', 'order.delivered', 'payment_transaction.recorded']) expect(names[e]).toContain('outbound-webhooks');
    expect(names['auth.token_revoked']).toEqual(['live-push-token-revoked']);
    // Each subscriber is listed once per event.
    for (const list of Object.values(names)) expect(new Set(list).size).toBe(list.length);
  });

  it('marks events without a subscriber published, and delivers a real event recorded by a request', async () => {
    await record(t, 'test.unheard', 3);
    const actor = await companyActor(t);
    const r = await drain(relay);
    expect(r).toMatchObject({ published: r.claimed, processed: 1 }); // user.registered, company.created and the 3 unheard
    expect(await unpublished(t)).toBe(0);
    const [created] = await t.ds.query(`SELECT id FROM outbox_events WHERE type = 'company.created' AND company_id = $1`, [actor.companyId]);
    await expectExactlyOnce(t, [created.id], ['LedgerSubscriber']);
    const deliveries = await t.ds.query(`SELECT subscriber, status, attempts FROM outbox_deliveries`);
    expect(deliveries).toEqual([{ subscriber: 'LedgerSubscriber', status: 'processed', attempts: 1 }]);
  });

  it('(a) two relays running at once over one database deliver each event exactly once', async () => {
    // PostgreSQL: a second app instance over the same database; embedded: a second relay over the one data source.
    const other = t.db === 'postgres' ? await startTestApp({ ...relayOptions, databaseUrl: t.config.databaseUrl }) : undefined;
    try {
      const relayB = other ? other.app.get(OutboxRelay) : new OutboxRelay(t.ds, t.config, t.app.get(DiscoveryService));
      const ids = await record(t, 'test.pinged', 200);
      const [a, b] = await Promise.all([drain(relay), drain(relayB)]);
      expect(a.claimed + b.claimed).toBe(200);
      expect(a.claimed).toBeGreaterThan(0);
      expect(b.claimed).toBeGreaterThan(0);
      expect(a.processed + b.processed).toBe(400);
      expect(a.retried + b.retried + a.dead + b.dead).toBe(0);
      expect(await unpublished(t)).toBe(0);
      await expectExactlyOnce(t, ids, ['LedgerSubscriber', 'CrashySubscriber']);
      // No handler ran twice, committed or not.
      expect(callsOf('LedgerSubscriber').sort()).toEqual([...ids].sort());
      expect(callsOf('CrashySubscriber').sort()).toEqual([...ids].sort());
    } finally {
      await other?.close();
    }
  });

  it('(a) two relays polling in the background while events keep coming deliver each event exactly once', async () => {
    const other = t.db === 'postgres' ? await startTestApp({ ...relayOptions, databaseUrl: t.config.databaseUrl }) : undefined;
    const relayB = other ? other.app.get(OutboxRelay) : new OutboxRelay(t.ds, t.config, t.app.get(DiscoveryService));
    try {
      relay.start();
      relayB.start();
      await Promise.all([record(t, 'test.pinged', 150, 5), other ? record(other, 'test.pinged', 150, 5) : record(t, 'test.pinged', 150, 5)]);
      await waitFor('every event published', async () => (await unpublished(t)) === 0);
    } finally {
      await Promise.all([relay.stop(), relayB.stop()]);
      await other?.close();
    }
    const ids: string[] = (await t.ds.query(`SELECT id FROM outbox_events`)).map((r: { id: string }) => r.id);
    expect(ids).toHaveLength(300);
    await expectExactlyOnce(t, ids, ['LedgerSubscriber', 'CrashySubscriber']);
    expect(callsOf('LedgerSubscriber')).toHaveLength(300);
  });

  it('(b) retries a failing subscriber with exponential backoff, then marks the delivery dead and logs it; the other subscriber gets the event once', async () => {
    const errors = jest.spyOn(Logger.prototype, 'error').mockImplementation(() => undefined);
    jest.spyOn(Logger.prototype, 'warn').mockImplementation(() => undefined);
    const [id] = await record(t, 'test.flaky', 1);
    const delivery = async () => {
      const [d] = await t.ds.query(
        `SELECT status, attempts, last_error, finished_at IS NOT NULL AS finished,
                (extract(epoch FROM next_attempt_at - last_attempt_at) * 1000)::int AS wait_ms
           FROM outbox_deliveries WHERE event_id = $1 AND subscriber = 'FlakySubscriber'`,
        [id],
      );
      return d;
    };

    for (let attempt = 1; attempt < MAX_ATTEMPTS; attempt++) {
      expect(await relay.runOnce()).toEqual({ claimed: 1, published: 0, processed: attempt === 1 ? 1 : 0, retried: 1, dead: 0 });
      expect(await delivery()).toEqual({ status: 'pending', attempts: attempt, last_error: `Error: flaky #${attempt}`, finished: false, wait_ms: RETRY_BASE_MS * 2 ** (attempt - 1) });
      const [event] = await t.ds.query(`SELECT published_at, claimed_until, next_attempt_at > now() AS later FROM outbox_events WHERE id = $1`, [id]);
      expect(event).toEqual({ published_at: null, claimed_until: null, later: true });
      // Not due yet: nothing is tried.
      expect(await relay.runOnce()).toMatchObject({ claimed: 0 });
      await retriesDue(t);
    }
    expect(errors).not.toHaveBeenCalled();

    expect(await relay.runOnce()).toEqual({ claimed: 1, published: 1, processed: 0, retried: 0, dead: 1 });
    expect(await delivery()).toEqual({ status: 'dead', attempts: MAX_ATTEMPTS, last_error: `Error: flaky #${MAX_ATTEMPTS}`, finished: true, wait_ms: null });
    expect(await unpublished(t)).toBe(0);
    expect(errors).toHaveBeenCalledTimes(1);
    expect(errors.mock.calls[0][0]).toEqual({
      msg: 'outbox delivery dead',
      event_id: id,
      event_type: 'test.flaky',
      subscriber: 'FlakySubscriber',
      attempts: MAX_ATTEMPTS,
      last_error: `Error: flaky #${MAX_ATTEMPTS}`,
    });
    expect(await relay.runOnce()).toMatchObject({ claimed: 0 });

    expect(callsOf('FlakySubscriber')).toHaveLength(MAX_ATTEMPTS);
    expect(callsOf('flaky-bystander')).toEqual([id]);
    // The failing subscriber's writes were rolled back every time; the bystander's committed once.
    await expectExactlyOnce(t, [id], ['flaky-bystander']);
  });

  it('(c) a subscriber that fails in the middle of a batch: the rest of the batch goes through, the next run delivers what is left, nothing twice', async () => {
    jest.spyOn(Logger.prototype, 'warn').mockImplementation(() => undefined);
    const ids = await record(t, 'test.pinged', BATCH);
    control.failOnce.add(5);
    expect(await relay.runOnce()).toEqual({ claimed: BATCH, published: BATCH - 1, processed: 2 * BATCH - 1, retried: 1, dead: 0 });
    await retriesDue(t);
    expect(await relay.runOnce()).toEqual({ claimed: 1, published: 1, processed: 1, retried: 0, dead: 0 });
    expect(await unpublished(t)).toBe(0);
    await expectExactlyOnce(t, ids, ['LedgerSubscriber', 'CrashySubscriber']);
    expect(callsOf('LedgerSubscriber')).toHaveLength(BATCH); // not called again for event 5
    expect(callsOf('CrashySubscriber')).toHaveLength(BATCH + 1);
  });

  it('(c) a relay that dies in the middle of a batch loses nothing: its lease runs out and the next run delivers the rest, once', async () => {
    const ids = await record(t, 'test.pinged', BATCH);
    // The process "dies" on its 7th delivery (event 4's first subscriber): nothing after it runs.
    const proto = OutboxRelay.prototype as unknown as { deliver: (...a: unknown[]) => Promise<unknown> };
    const deliver = proto.deliver;
    let n = 0;
    jest.spyOn(proto, 'deliver').mockImplementation(function (this: unknown, ...args: unknown[]) {
      if (++n === 7) return Promise.reject(new Error('process died'));
      return deliver.apply(this, args);
    });
    await expect(relay.runOnce()).rejects.toThrow('process died');
    jest.restoreAllMocks();
    expect(await unpublished(t)).toBe(BATCH - 3);

    // Another relay (or this one, restarted) leaves leased events alone until the lease has run out.
    const relayB = new OutboxRelay(t.ds, t.config, t.app.get(DiscoveryService));
    expect(await relayB.runOnce()).toMatchObject({ claimed: 0 });
    await leasesExpired(t);
    expect(await relayB.runOnce()).toEqual({ claimed: BATCH - 3, published: BATCH - 3, processed: 2 * (BATCH - 3), retried: 0, dead: 0 });
    await expectExactlyOnce(t, ids, ['LedgerSubscriber', 'CrashySubscriber']);
    expect(callsOf('LedgerSubscriber')).toHaveLength(BATCH);
  });

  it('(c) a batch that takes longer than its lease keeps it (renewed as it goes): another relay claims none of its events, each is delivered once', async () => {
    const LEASE_MS = 900;
    const before = t.config.outboxRelayLeaseMs;
    t.config.outboxRelayLeaseMs = LEASE_MS;
    const other = t.db === 'postgres' ? await startTestApp({ ...relayOptions, databaseUrl: t.config.databaseUrl, configure: (c) => (relayOptions.configure(c), (c.outboxRelayLeaseMs = LEASE_MS)) }) : undefined;
    try {
      const relayB = other ? other.app.get(OutboxRelay) : new OutboxRelay(t.ds, t.config, t.app.get(DiscoveryService));
      const ids = await record(t, 'test.pinged', 5);
      // Each event's first subscriber takes 400 ms: the batch of 5 runs about 2 s, more than twice the lease.
      control.onLedger = async () => {
        await sleep(400);
      };
      const slow = relay.runOnce();
      await sleep(LEASE_MS + 400);
      const meanwhile = await relayB.runOnce();
      const first = await slow;
      control.onLedger = undefined;
      expect(first.claimed).toBe(5);
      expect(meanwhile.claimed).toBe(0);
      expect(await unpublished(t)).toBe(0);
      await expectExactlyOnce(t, ids, ['LedgerSubscriber', 'CrashySubscriber']);
      expect(callsOf('LedgerSubscriber').sort()).toEqual([...ids].sort());
    } finally {
      t.config.outboxRelayLeaseMs = before;
      await other?.close();
    }
  });

  it('(d) an outside subscriber runs with no transaction open and no connection held: other work goes on meanwhile; a failure is retried, once each', async () => {
    const ids = await record(t, 'test.called', 2, 1); // one transaction each: ids[0] is n = 1, ids[1] is n = 2
    control.failOnce.add(2);
    let probe = 0;
    // While the subscriber "waits on a remote server", the database answers others (the embedded database's one connection too).
    control.onOutside = async () => {
      const [{ one }] = await t.ds.query('SELECT 1 AS one');
      probe += one;
    };
    const r = await relay.runOnce();
    expect(r).toMatchObject({ claimed: 2, processed: 1, retried: 1 });
    expect(probe).toBe(2);
    expect(control.outsideSawTransaction).toEqual([false, false]);
    await retriesDue(t);
    await drain(relay);
    expect(await unpublished(t)).toBe(0);
    // The failed call's own write committed (no transaction to roll it back): at least once, made idempotent by event id in real subscribers.
    const counts = await ledgerCounts(t);
    expect([counts.get(`outside-caller ${ids[0]}`), counts.get(`outside-caller ${ids[1]}`)]).toEqual([1, 2]);
    const deliveries = await t.ds.query(`SELECT status, attempts FROM outbox_deliveries WHERE subscriber = 'outside-caller' ORDER BY attempts`);
    expect(deliveries).toEqual([{ status: 'processed', attempts: 1 }, { status: 'processed', attempts: 2 }]);
  });

  it('(c) a relay that dies after the subscribers committed but before publishing: the next run publishes without calling them again', async () => {
    const ids = await record(t, 'test.pinged', 3);
    const proto = OutboxRelay.prototype as unknown as { finalize: (...a: unknown[]) => Promise<unknown> };
    jest.spyOn(proto, 'finalize').mockRejectedValueOnce(new Error('process died'));
    await expect(relay.runOnce()).rejects.toThrow('process died');
    jest.restoreAllMocks();
    expect(callsOf('LedgerSubscriber')).toEqual([ids[0]]);

    await leasesExpired(t);
    expect(await relay.runOnce()).toEqual({ claimed: 3, published: 3, processed: 4, retried: 0, dead: 0 });
    await expectExactlyOnce(t, ids, ['LedgerSubscriber', 'CrashySubscriber']);
    expect(callsOf('LedgerSubscriber')).toEqual(ids);
  });

  it('(c) stop() in the middle of a batch finishes that batch and polls no more; the next run delivers the rest', async () => {
    const ids = await record(t, 'test.pinged', BATCH + 5);
    let stopped: Promise<void> | undefined;
    control.onLedger = () => {
      if (callsOf('LedgerSubscriber').length === 3) stopped = relay.stop(); // shutdown begins during the first batch
    };
    relay.start();
    await waitFor('the stop', async () => stopped !== undefined);
    await stopped;
    expect(callsOf('LedgerSubscriber')).toHaveLength(BATCH);
    expect(await unpublished(t)).toBe(5);
    const [{ leased }] = await t.ds.query(`SELECT count(*)::int AS leased FROM outbox_events WHERE claimed_until IS NOT NULL`);
    expect(leased).toBe(0);
    await sleep(150); // no poll after the stop
    expect(callsOf('LedgerSubscriber')).toHaveLength(BATCH);

    control.onLedger = undefined;
    expect(await relay.runOnce()).toEqual({ claimed: 5, published: 5, processed: 10, retried: 0, dead: 0 });
    await expectExactlyOnce(t, ids, ['LedgerSubscriber', 'CrashySubscriber']);
  });

  (process.env.TEST_DB === 'embedded' ? it.skip : it)('(c) PostgreSQL: the connection dies inside a subscriber: its work rolls back, and the event is delivered once later', async () => {
    expect(t.db).toBe('postgres');
    const ids = await record(t, 'test.pinged', 4);
    control.onLedger = async (e, m) => {
      if (e.id !== ids[1]) return;
      control.onLedger = undefined;
      // The server ends this transaction's backend, as when the process or its connection dies.
      const [{ pid }] = await m.query(`SELECT pg_backend_pid() AS pid`);
      const admin = new Client({ connectionString: t.config.databaseUrl });
      await admin.connect();
      try {
        await admin.query(`SELECT pg_terminate_backend($1)`, [pid]);
      } finally {
        await admin.end();
      }
    };
    jest.spyOn(Logger.prototype, 'warn').mockImplementation(() => undefined);
    await expect(relay.runOnce()).rejects.toThrow();
    expect(callsOf('LedgerSubscriber')).toEqual([ids[0], ids[1]]);
    await leasesExpired(t);
    await drain(relay);
    expect(await unpublished(t)).toBe(0);
    await expectExactlyOnce(t, ids, ['LedgerSubscriber', 'CrashySubscriber']);
    expect(callsOf('LedgerSubscriber')).toEqual([ids[0], ids[1], ids[1], ids[2], ids[3]]); // event 2's first run never committed
  });

  it('starts with the app when enabled, and stops with it', async () => {
    const other = await startTestApp({ ...relayOptions, databaseUrl: t.config.databaseUrl, env: { OUTBOX_RELAY_ENABLED: 'true', OUTBOX_RELAY_POLL_MS: '20' } });
    try {
      expect(other.config.outboxRelayEnabled).toBe(true);
      await other.ds.query(`CREATE TABLE IF NOT EXISTS relay_test_ledger (event_id uuid NOT NULL, subscriber text NOT NULL, attempt int NOT NULL)`);
      const actor = await companyActor(other);
      await waitFor('company.created published', async () => {
        const [e] = await other.ds.query(`SELECT published_at FROM outbox_events WHERE type = 'company.created' AND company_id = $1`, [actor.companyId]);
        return !!e?.published_at;
      });
      const [d] = await other.ds.query(`SELECT d.status FROM outbox_deliveries d JOIN outbox_events e ON e.id = d.event_id WHERE e.company_id = $1`, [actor.companyId]);
      expect(d).toEqual({ status: 'processed' });
    } finally {
      await other.close();
    }
  });

  it('validates its configuration', () => {
    const env = { DATA_DIR: t.config.dataDir, JWT_SECRET: t.config.jwtSecret };
    expect(loadConfig(env)).toMatchObject({ outboxRelayEnabled: true, outboxRelayPollMs: 1000, outboxRelayMaxAttempts: 8 });
    expect(loadConfig({ ...env, OUTBOX_RELAY_ENABLED: 'false', OUTBOX_RELAY_POLL_MS: '250', OUTBOX_RELAY_MAX_ATTEMPTS: '3' })).toMatchObject({
      outboxRelayEnabled: false,
      outboxRelayPollMs: 250,
      outboxRelayMaxAttempts: 3,
    });
    expect(() => loadConfig({ ...env, OUTBOX_RELAY_POLL_MS: 'soon' })).toThrow(/^Invalid configuration: OUTBOX_RELAY_POLL_MS /);
    expect(() => loadConfig({ ...env, OUTBOX_RELAY_ENABLED: 'maybe' })).toThrow(/^Invalid configuration: OUTBOX_RELAY_ENABLED /);
    expect(() => loadConfig({ ...env, OUTBOX_RELAY_MAX_ATTEMPTS: '0' })).toThrow(/^Invalid configuration: OUTBOX_RELAY_MAX_ATTEMPTS /);
  });
});

/** Compile-time checks (`npm test` type-checks this file): only catalogue names, each with its payload. */
export function catalogueIsEnforced(m: EntityManager) {
  // @ts-expect-error unknown event name
  void recordEvents(m, { type: 'order.canceled', aggregateType: 'order', aggregateId: 'x', payload: {} });
  // @ts-expect-error wrong payload for the name
  void recordEvents(m, { type: 'company.created', aggregateType: 'company', aggregateId: 'x', payload: { title: 'Acme' } });
  // @ts-expect-error missing payload
  void recordEvents(m, { type: 'job.aborted', aggregateType: 'job', aggregateId: 'x' });
  const kind = 'lot' as 'lot' | 'station';
  // @ts-expect-error a template-literal name outside the catalogue
  void recordEvents(m, { type: `${kind}.renamed`, aggregateType: kind, aggregateId: 'x', payload: { name: 'x' } });
  void recordEvents(m, { type: `${kind}.created`, aggregateType: kind, aggregateId: 'x', payload: { fields: ['name'] } });
  void recordEvents(m, { type: 'company.settings_reset', aggregateType: 'company', aggregateId: 'x' });
}
