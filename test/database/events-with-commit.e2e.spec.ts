import { randomUUID } from 'node:crypto';
import { recordEvents } from '../../src/common/outbox/outbox';
import { UnitOfWork } from '../../src/database/unit-of-work';
import { startTestApp, TestApp } from '../support/test-app';

jest.setTimeout(120_000);

declare module '../../src/common/outbox/event-catalogue' {
  interface EventCatalogue {
    'test.deferred': { n: number };
  }
}

/**
 * The outbox's INSERT goes with the COMMIT (src/database/unit-of-work.ts `sendWithCommit`, PostgreSQL): an
 * event exists exactly when its transaction committed, savepoints included; on the embedded database it is
 * written at once, with the same outcome.
 */
describe('events are written with the COMMIT of their transaction', () => {
  let t: TestApp;
  let uow: UnitOfWork;
  beforeAll(async () => {
    t = await startTestApp();
    uow = t.app.get(UnitOfWork);
  });
  afterAll(() => t?.close());

  const record = (aggregateId: string, n: number) => recordEvents(uow.manager, { type: 'test.deferred', aggregateType: 'test', aggregateId, payload: { n } });
  const committed = async (aggregateId: string) =>
    (await t.ds.query<{ n: number }[]>(`SELECT (payload->>'n')::int AS n FROM outbox_events WHERE aggregate_id = $1 ORDER BY (payload->>'n')::int`, [aggregateId])).map((r) => r.n);

  it('commits the events of a unit, with quotes and backslashes in their payloads intact', async () => {
    const id = randomUUID();
    await uow.transaction(async () => {
      await record(id, 1);
      await recordEvents(uow.manager, { type: 'test.deferred', aggregateType: "it's \\ odd", aggregateId: id, payload: { n: 2 } });
      // Not sent yet on PostgreSQL (it goes with the COMMIT), written at once on the embedded database.
      const [{ n }] = await uow.manager.query<{ n: number }[]>(`SELECT count(*)::int AS n FROM outbox_events WHERE aggregate_id = $1`, [id]);
      expect(n).toBe(t.db === 'postgres' ? 0 : 2);
    });
    expect(await committed(id)).toEqual([1, 2]);
    const [row] = await t.ds.query<{ aggregate_type: string }[]>(`SELECT aggregate_type FROM outbox_events WHERE aggregate_id = $1 AND payload->>'n' = '2'`, [id]);
    expect(row.aggregate_type).toBe("it's \\ odd");
  });

  it('drops the events of a unit that rolls back', async () => {
    const id = randomUUID();
    await expect(
      uow.transaction(async () => {
        await record(id, 1);
        throw new Error('rolled back');
      }),
    ).rejects.toThrow('rolled back');
    expect(await committed(id)).toEqual([]);
  });

  it('drops the events of a savepoint that rolls back, keeps those of its unit and of a savepoint released', async () => {
    const id = randomUUID();
    await uow.transaction(async () => {
      await record(id, 1);
      await uow.transaction(async () => record(id, 2));
      await uow
        .transaction(async () => {
          await record(id, 3);
          await uow.transaction(async () => record(id, 4));
          throw new Error('savepoint rolled back');
        })
        .catch(() => undefined);
      await record(id, 5);
    });
    expect(await committed(id)).toEqual([1, 2, 5]);
  });

  it('a failing event fails the COMMIT: nothing of the unit is kept', async () => {
    const id = randomUUID();
    await t.ds.query(`CREATE TABLE IF NOT EXISTS deferred_probe (id uuid PRIMARY KEY)`);
    await expect(
      uow.transaction(async () => {
        await uow.manager.query(`INSERT INTO deferred_probe (id) VALUES ($1)`, [id]);
        await record(id, 1);
        // Not a company: the outbox row's foreign key fails (at the COMMIT on PostgreSQL, at once on the embedded database).
        await recordEvents(uow.manager, { type: 'test.deferred', aggregateType: 'test', aggregateId: id, companyId: randomUUID(), payload: { n: 2 } });
      }),
    ).rejects.toThrow();
    expect(await committed(id)).toEqual([]);
    expect(await t.ds.query(`SELECT id FROM deferred_probe WHERE id = $1`, [id])).toEqual([]);
  });

  it('outside a unit recording is refused', async () => {
    await expect(record(randomUUID(), 1)).rejects.toThrow(/inside the transaction/);
  });
});
