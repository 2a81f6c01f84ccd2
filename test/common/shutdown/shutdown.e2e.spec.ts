import http from 'node:http';
import { AddressInfo } from 'node:net';
import { httpDrainOf } from '../../../src/common/shutdown/http-drain';
import { NoAnswer, Reply, request, sleep } from '../../crash/harness';
import { startTestApp, TestApp } from '../../support/test-app';

/**
 * The HTTP drain that shutdown runs (src/common/shutdown/http-drain.ts), on a listening test app. The
 * whole shutdown (signal, relay, database, exit code and time) of the built server is in
 * `npm run test:crash`.
 */
describe('shutdown drain', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await startTestApp();
    await t.app.listen(0, '127.0.0.1');
  });
  afterAll(async () => t?.close());

  it('answers every request it received, with Connection: close, closes idle kept-alive connections, then refuses', async () => {
    const port = (t.app.getHttpServer().address() as AddressInfo).port;
    let stop = false;
    const outcomes: (Reply | NoAnswer)[] = [];
    const client = async () => {
      const agent = new http.Agent({ keepAlive: true, maxSockets: 1 });
      while (!stop) {
        try {
          outcomes.push(await request(port, 'GET', '/health', { agent }));
        } catch (e) {
          if (!(e instanceof NoAnswer)) throw e;
          outcomes.push(e);
          if (e.kind === 'refused') break;
        }
      }
      agent.destroy();
    };
    // A client that made one request and keeps its connection open, idle.
    const idleAgent = new http.Agent({ keepAlive: true, maxSockets: 1 });
    expect((await request(port, 'GET', '/health', { agent: idleAgent })).status).toBe(200);

    const loops = Array.from({ length: 5 }, client);
    await sleep(300);
    const started = Date.now();
    const report = await httpDrainOf(t.app).drain({ deadlineMs: 5000, idleGraceMs: 200 });
    const drainMs = Date.now() - started;
    stop = true;
    await Promise.all(loops);
    idleAgent.destroy();

    expect(report).toMatchObject({ forced: 0, requests_cut: 0 });
    expect(report.idle_closed).toBeGreaterThanOrEqual(1);
    expect(drainMs).toBeLessThan(3000);
    expect(t.app.getHttpServer().listening).toBe(false);
    const replies = outcomes.filter((o): o is Reply => !(o instanceof NoAnswer));
    const failures = outcomes.filter((o): o is NoAnswer => o instanceof NoAnswer);
    expect(replies.every((r) => r.status === 200)).toBe(true);
    expect(replies.filter((r) => r.headers.connection === 'close').length).toBeGreaterThan(0);
    // Nothing reset: after the drain a client's new connection is refused.
    expect(failures.map((f) => f.kind)).toEqual(failures.map(() => 'refused'));
    expect(failures.length).toBe(5);
  });
});
