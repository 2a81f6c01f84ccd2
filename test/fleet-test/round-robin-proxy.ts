import http from 'node:http';
import net from 'node:net';
import { AddressInfo } from 'node:net';

/**
 * The fleet test's load balancer (node:http, loopback only): each request goes to the next live instance
 * in turn, with the TCP peer appended to `X-Forwarded-For` (as Caddy or nginx do; the instances run with
 * `TRUST_PROXY=1`). Answers carry `X-Served-By: <instance index>`. WebSocket upgrades (socket.io with
 * `transports: ['websocket']`) are forwarded the same way and piped.
 *
 * - An instance that refuses the connection (nothing was sent: its process is gone) is marked down and
 *   the request goes to the next one; `down(i)` does the same by hand.
 * - An instance that dies after the request was sent: the client's connection is destroyed (a cut, as a
 *   real proxy's 502 would be: the request may or may not have taken effect).
 */
export class RoundRobinProxy {
  readonly served: number[] = [];
  /** One entry per forwarded upgrade (websocket), in order: the instance it went to. */
  readonly upgrades: { instance: number; at: number }[] = [];
  private readonly alive: boolean[];
  private next = 0;
  private server?: http.Server;
  private readonly open = new Set<net.Socket>();
  port = 0;

  constructor(private readonly ports: number[]) {
    this.alive = ports.map(() => true);
  }

  async start(): Promise<this> {
    this.server = http.createServer((req, res) => void this.forward(req, res));
    this.server.on('upgrade', (req, socket, head) => this.upgrade(req, socket as net.Socket, head));
    this.server.on('connection', (s) => {
      this.open.add(s);
      s.once('close', () => this.open.delete(s));
    });
    await new Promise<void>((ok) => this.server!.listen(0, '127.0.0.1', ok));
    this.port = (this.server.address() as AddressInfo).port;
    return this;
  }

  async stop(): Promise<void> {
    for (const s of this.open) s.destroy();
    await new Promise<void>((ok) => (this.server ? this.server.close(() => ok()) : ok()));
  }

  down(i: number): void {
    this.alive[i] = false;
  }

  /** The next live instance, round robin. */
  private pick(): number {
    for (let k = 0; k < this.ports.length; k++) {
      const i = this.next;
      this.next = (this.next + 1) % this.ports.length;
      if (this.alive[i]) return i;
    }
    throw new Error('no live instance');
  }

  private headers(req: http.IncomingMessage): http.OutgoingHttpHeaders {
    const peer = (req.socket.remoteAddress ?? '').replace(/^::ffff:/, '');
    const prior = req.headers['x-forwarded-for'];
    return { ...req.headers, 'x-forwarded-for': prior ? `${prior}, ${peer}` : peer };
  }

  private async forward(req: http.IncomingMessage, res: http.ServerResponse): Promise<void> {
    const chunks: Buffer[] = [];
    for await (const c of req) chunks.push(c as Buffer);
    const body = Buffer.concat(chunks);
    const headers = this.headers(req);
    for (;;) {
      let i: number;
      try {
        i = this.pick();
      } catch {
        res.writeHead(503).end();
        return;
      }
      const outcome = await new Promise<'done' | 'refused'>((resolve) => {
        const up = http.request({ host: '127.0.0.1', port: this.ports[i], method: req.method, path: req.url, headers, agent: false }, (r) => {
          this.served.push(i);
          res.writeHead(r.statusCode ?? 502, { ...r.headers, 'x-served-by': String(i) });
          r.pipe(res);
          r.on('error', () => res.destroy());
          r.on('aborted', () => res.destroy());
          r.on('end', () => resolve('done'));
        });
        up.on('error', (e: NodeJS.ErrnoException) => {
          if (e.code === 'ECONNREFUSED') {
            this.alive[i] = false;
            return resolve('refused');
          }
          res.destroy(); // sent, and cut: the client sees a cut too
          resolve('done');
        });
        up.end(body);
      });
      if (outcome === 'done') return;
    }
  }

  private upgrade(req: http.IncomingMessage, client: net.Socket, head: Buffer): void {
    let i: number;
    try {
      i = this.pick();
    } catch {
      client.destroy();
      return;
    }
    this.upgrades.push({ instance: i, at: Date.now() });
    const up = net.connect(this.ports[i], '127.0.0.1', () => {
      const lines = [`${req.method} ${req.url} HTTP/1.1`];
      for (const [k, v] of Object.entries(this.headers(req))) for (const x of Array.isArray(v) ? v : [v]) if (x !== undefined) lines.push(`${k}: ${x}`);
      up.write(lines.join('\r\n') + '\r\n\r\n');
      if (head.length) up.write(head);
      up.pipe(client);
      client.pipe(up);
    });
    this.open.add(up);
    up.once('close', () => this.open.delete(up));
    up.on('error', (e: NodeJS.ErrnoException) => {
      if (e.code === 'ECONNREFUSED') this.alive[i] = false;
      client.destroy();
    });
    client.on('error', () => up.destroy());
    client.on('close', () => up.destroy());
    up.on('close', () => client.destroy());
  }
}
