import { createServer, IncomingMessage, Server, ServerResponse } from 'node:http';
import { AddressInfo } from 'node:net';

/**
 * A minimal S3-compatible server on a loopback port, for the S3 media store's tests: path-style
 * `PUT|GET|HEAD|DELETE /<bucket>/<key>` on one bucket, objects in memory. Signatures are not checked
 * (the SDK's signing is the SDK's business); a request names the bucket and key it acts on, and each is
 * recorded in `requests`.
 */
export class S3Stub {
  readonly objects = new Map<string, { body: Buffer; type: string }>();
  readonly requests: { method: string; key: string }[] = [];
  private server?: Server;
  url = '';

  constructor(readonly bucket: string) {}

  async start(): Promise<this> {
    this.server = createServer((req, res) => void this.handle(req, res));
    await new Promise<void>((ok) => this.server!.listen(0, '127.0.0.1', ok));
    this.url = `http://127.0.0.1:${(this.server.address() as AddressInfo).port}`;
    return this;
  }

  async stop(): Promise<void> {
    await new Promise<void>((ok) => (this.server ? this.server.close(() => ok()) : ok()));
  }

  private async handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const chunks: Buffer[] = [];
    for await (const c of req) chunks.push(c as Buffer);
    const [, bucket, ...rest] = new URL(req.url ?? '/', 'http://stub').pathname.split('/');
    const key = decodeURIComponent(rest.join('/'));
    this.requests.push({ method: req.method ?? '', key });
    if (bucket !== this.bucket) return this.error(res, 404, 'NoSuchBucket');
    const object = this.objects.get(key);
    switch (req.method) {
      case 'PUT':
        this.objects.set(key, { body: Buffer.concat(chunks), type: String(req.headers['content-type'] ?? 'application/octet-stream') });
        res.writeHead(200, { ETag: '"stub"' }).end();
        return;
      case 'GET':
      case 'HEAD':
        if (!object) return this.error(res, 404, 'NoSuchKey');
        res.writeHead(200, { 'Content-Type': object.type, 'Content-Length': object.body.length, ETag: '"stub"' });
        res.end(req.method === 'GET' ? object.body : undefined);
        return;
      case 'DELETE':
        this.objects.delete(key);
        res.writeHead(204).end();
        return;
      default:
        this.error(res, 405, 'MethodNotAllowed');
    }
  }

  private error(res: ServerResponse, status: number, code: string): void {
    res.writeHead(status, { 'Content-Type': 'application/xml' }).end(`<?xml version="1.0" encoding="UTF-8"?><Error><Code>${code}</Code><Message>${code}</Message></Error>`);
  }
}
