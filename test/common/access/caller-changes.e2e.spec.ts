import { CallerChanges } from '../../../src/common/access/caller-changes';
import { companyActor, memberActor } from '../../support/actors';
import { startTestApp, TestApp, testDatabaseKind } from '../../support/test-app';
import { waitFor } from '../../support/wait-for';

/**
 * Issue #24: an instance keeps the callers it has read (src/common/access/caller-changes.ts), and a logout,
 * a revocation or a deactivation still takes effect at once on every instance. Two instances on one
 * PostgreSQL database: what one of them (or any statement) changes, the other refuses on the very next
 * request. Fault model: the listening connection cut, and a listening connection that stalls.
 */
describe('kept callers: a change takes effect at once on every instance', () => {
  let a: TestApp;
  let b: TestApp;
  let postgres = false;

  const changes = (t: TestApp) => t.app.get(CallerChanges);
  const jtiOf = (token: string): string => JSON.parse(Buffer.from(token.split('.')[1], 'base64url').toString('utf8')).jti;
  const settings = (t: TestApp, token: string) => t.req('get', '/api/v1/company/settings', { token });
  /** B has read the caller of `token` and keeps it (a second request is answered from its memory). */
  const keptOnB = async (token: string, path = '/api/v1/company/settings') => {
    // A read that overlapped a notice (of the fixture's own writes, still on their way to B) is not kept; a later one is.
    await waitFor('B keeps the caller', async () => {
      await b.req('get', path, { token }).expect(200);
      return changes(b).memory.has(jtiOf(token));
    }, 5_000);
    await b.req('get', path, { token }).expect(200);
  };

  /** A new company's customer whose caller B keeps (read through the customer's profile route). */
  const customerKeptOnB = async () => {
    const customer = await memberActor(a, await companyActor(a), 'customer');
    await keptOnB(customer.token, '/api/v1/customer/profile');
    return customer;
  };

  beforeAll(async () => {
    postgres = (await testDatabaseKind()) === 'postgres';
    if (!postgres) return;
    a = await startTestApp();
    b = await startTestApp({ databaseUrl: a.config.databaseUrl });
    await waitFor('listening', () => changes(a).live && changes(b).live);
  });
  afterAll(async () => {
    await b?.close();
    await a?.close();
  });

  it('a logout on one instance is a 401 on the other at once', async () => {
    if (!postgres) return;
    const co = await companyActor(a);
    await keptOnB(co.token);
    await a.req('post', '/api/v1/auth/logout', { token: co.token }).expect(200);
    const r = await settings(b, co.token).expect(401);
    expect(r.body.code).toBe('TOKEN_REVOKED');
  });

  it('a user made inactive by any statement is refused on the next request', async () => {
    if (!postgres) return;
    const customer = await customerKeptOnB();
    await a.ds.query(`UPDATE users SET status = 'inactive' WHERE id = $1`, [customer.id]);
    expect((await b.req('get', '/api/v1/customer/profile', { token: customer.token }).expect(403)).body.code).toBe('USER_INACTIVE');
  });

  it("any change to a customer's record drops the customer's kept callers (its flags are SQL over any column the customers module chooses)", async () => {
    if (!postgres) return;
    const customer = await customerKeptOnB();
    await a.ds.query(`UPDATE customers SET notes = 'changed' WHERE id = $1`, [customer.id]);
    await waitFor('the kept customer dropped', () => !changes(b).memory.has(jtiOf(customer.token)), 5_000);
  });

  it('a company made inactive is refused on the next request of its users', async () => {
    if (!postgres) return;
    const co = await companyActor(a);
    await keptOnB(co.token);
    await a.ds.query(`UPDATE companies SET status = 'inactive' WHERE id = $1`, [co.companyId]);
    expect((await settings(b, co.token).expect(403)).body.code).toBe('COMPANY_INACTIVE');
  });

  it("a driver whose record is deleted is no longer the company's driver on the next request", async () => {
    if (!postgres) return;
    const co = await companyActor(a);
    const driver = await memberActor(a, co, 'driver');
    await keptOnB(driver.token, '/api/v1/driver/status/check-in');
    await a.ds.query(`DELETE FROM drivers WHERE id = $1`, [driver.id]);
    expect((await b.req('get', '/api/v1/driver/status/check-in', { token: driver.token }).expect(403)).body.code).toBe('NOT_A_MEMBER');
  });

  it('with its listening connection cut, an instance reads every caller, and forgets what it kept (notices missed meanwhile hold after it listens again)', async () => {
    if (!postgres) return;
    const [co, other] = [await companyActor(a), await companyActor(a)];
    await keptOnB(co.token);
    await keptOnB(other.token);
    const [cut] = await a.ds.query(`SELECT pg_terminate_backend(pid) AS done FROM pg_stat_activity WHERE application_name = $1`, [changes(b).channel]);
    expect(cut?.done).toBe(true);
    await waitFor('noticed the cut', () => !changes(b).live);
    // Both revoked while B hears nothing: one is asked for at once, the other once B listens again.
    await a.ds.query(`UPDATE auth_tokens SET revoked_at = now() WHERE jti = ANY($1::uuid[])`, [[jtiOf(co.token), jtiOf(other.token)]]);
    expect((await settings(b, co.token).expect(401)).body.code).toBe('TOKEN_REVOKED');
    await waitFor('listening again', () => changes(b).live);
    expect((await settings(b, other.token).expect(401)).body.code).toBe('TOKEN_REVOKED');
    const again = await companyActor(a);
    await keptOnB(again.token);
  });

  it('with its listening connection stalled, a request reads its caller after a short wait (a revocation it cannot hear still holds)', async () => {
    if (!postgres) return;
    const co = await companyActor(a);
    await keptOnB(co.token);
    // The connection's socket stops being read: neither notices nor syncs arrive.
    const socket = (changes(b) as unknown as { client: { connection: { stream: { pause(): void; resume(): void } } } }).client.connection.stream;
    socket.pause();
    try {
      await a.ds.query(`UPDATE auth_tokens SET revoked_at = now() WHERE jti = $1`, [jtiOf(co.token)]);
      const started = Date.now();
      expect((await settings(b, co.token).expect(401)).body.code).toBe('TOKEN_REVOKED');
      expect(Date.now() - started).toBeLessThan(5_000);
    } finally {
      socket.resume();
    }
  });
});
