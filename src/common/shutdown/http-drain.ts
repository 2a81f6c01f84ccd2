import type { IncomingMessage, Server, ServerResponse } from 'node:http';
import { Server as NetServer, Socket } from 'node:net';

/** What a drain did (logged by the shutdown). */
export interface DrainReport {
  /** Requests being processed when the drain began. */
  in_progress_at_start: number;
  /** Requests answered after it began: those in progress, and those that came on open connections meanwhile. */
  answered: number;
  /** Keep-alive connections closed after idling `idleGraceMs`. */
  idle_closed: number;
  /** Connections still open at the deadline (destroyed), and the requests cut with them; both 0 unless the deadline passed. */
  forced: number;
  requests_cut: number;
  drain_ms: number;
}

interface Connection {
  /** Requests received on it and not yet answered. */
  busy: number;
  /** Requests received on it so far. */
  received: number;
  idleSince: number;
  /** `received` when a sweep last found it idle for the grace period (closed if the next sweep finds the same). */
  idleMark?: number;
}

/**
 * Resolves in the check phase of a later event-loop turn, i.e. after a poll phase has accepted waiting
 * connections and read the bytes that had arrived. (On the embedded database, queries run on the main
 * thread: while requests queue for its connection the loop may not poll for a while.)
 */
const afterPoll = (ms = 0) => new Promise<void>((resolve) => setTimeout(() => setImmediate(resolve), ms));

/**
 * Tracks the HTTP server's connections and requests so that shutdown can drain them:
 *
 * 1. Every answer from then on carries `Connection: close` (also those of requests already in progress),
 *    so each connection closes after its current request; requests that still arrive on open connections
 *    are served normally, then their connection closes.
 * 2. Once the connections already waiting in the listen backlog are accepted (closing the listener would
 *    reset them, requests sent included; a poll accepts only a few, so it polls until one accepts none, at
 *    most `acceptMs`), the server stops listening: new connections are refused. Not with
 *    `http.Server.close()`, which also closes idle
 *    sockets at once (`closeIdleConnections()`), racing with clients that are just sending their next
 *    request on a kept-alive socket: such a request is lost.
 * 3. A connection found idle for `idleGraceMs` by two sweeps in a row, with a poll between them and no
 *    request meanwhile, is closed (a client that is not using it; its bytes, had it sent any, would have
 *    been read by that poll).
 * 4. At `deadlineMs` whatever is left is destroyed and counted (`forced`, `requests_cut`).
 */
export class HttpDrain {
  private readonly connections = new Map<Socket, Connection>();
  private readonly pending = new Set<ServerResponse>();
  private draining = false;
  private answered = 0;
  private accepted = 0;

  constructor(private readonly server: Server) {
    server.on('connection', (socket: Socket) => {
      this.accepted++;
      this.connections.set(socket, { busy: 0, received: 0, idleSince: Date.now() });
      socket.once('close', () => this.connections.delete(socket));
    });
    // Before the application's own listener, so that the header is set before anything is written.
    server.prependListener('request', (req: IncomingMessage, res: ServerResponse) => {
      const connection = this.connections.get(req.socket);
      if (connection) {
        connection.busy++;
        connection.received++;
      }
      this.pending.add(res);
      if (this.draining) res.setHeader('Connection', 'close');
      res.once('close', () => {
        this.pending.delete(res);
        if (this.draining && res.writableFinished) this.answered++;
        if (connection && --connection.busy === 0) connection.idleSince = Date.now();
      });
    });
  }

  get isDraining(): boolean {
    return this.draining;
  }

  /** Open connections and requests in progress. */
  load(): { connections: number; requests: number } {
    return { connections: this.connections.size, requests: this.pending.size };
  }

  /** Drains as described above; resolves when every connection is closed. */
  async drain(options: { deadlineMs: number; idleGraceMs: number; acceptMs?: number; pollMs?: number }): Promise<DrainReport> {
    const started = Date.now();
    this.draining = true;
    const report: DrainReport = { in_progress_at_start: this.pending.size, answered: 0, idle_closed: 0, forced: 0, requests_cut: 0, drain_ms: 0 };
    for (const res of this.pending) if (!res.headersSent) res.setHeader('Connection', 'close');
    if (this.server.listening) {
      const acceptUntil = started + (options.acceptMs ?? 1000);
      let before: number;
      do {
        before = this.accepted;
        await afterPoll();
      } while (this.accepted > before && Date.now() < acceptUntil);
    }
    const closed = new Promise<void>((resolve) => {
      if (!this.server.listening) return resolve();
      // net.Server's close: stop listening; the callback runs once the last connection has closed.
      NetServer.prototype.close.call(this.server, () => resolve());
    });
    const poll = options.pollMs ?? 50;
    let done = false;
    void closed.then(() => (done = true));
    while (!done && this.connections.size > 0) {
      await afterPoll(poll);
      const now = Date.now();
      if (now - started >= options.deadlineMs) {
        report.forced = this.connections.size;
        report.requests_cut = this.pending.size;
        for (const socket of this.connections.keys()) socket.destroy();
        break;
      }
      for (const [socket, c] of this.connections) {
        if (c.busy > 0 || now - c.idleSince < options.idleGraceMs) {
          c.idleMark = undefined;
        } else if (c.idleMark === c.received) {
          report.idle_closed++;
          socket.destroy();
        } else {
          c.idleMark = c.received;
        }
      }
    }
    await closed;
    report.answered = this.answered;
    report.drain_ms = Date.now() - started;
    return report;
  }
}

const drains = new WeakMap<object, HttpDrain>();

/** The drain of an application's HTTP server, created on first use (before the server accepts connections). */
export function httpDrainOf(app: { getHttpServer(): Server }): HttpDrain {
  let drain = drains.get(app);
  if (!drain) {
    drain = new HttpDrain(app.getHttpServer());
    drains.set(app, drain);
  }
  return drain;
}
