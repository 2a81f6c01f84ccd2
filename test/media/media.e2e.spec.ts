import { createHash } from 'node:crypto';
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { startTestApp, TestApp } from '../support/test-app';

const PNG = Buffer.concat([Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]), Buffer.from('IHDR-rest-of-a-png')]);
const JPEG = Buffer.concat([Buffer.from([0xff, 0xd8, 0xff, 0xe0]), Buffer.from('JFIF-rest-of-a-jpeg')]);
const WEBP = Buffer.concat([Buffer.from('RIFF'), Buffer.from([0x24, 0, 0, 0]), Buffer.from('WEBPVP8 rest')]);
const PDF = Buffer.from('%PDF-1.7\n1 0 obj << >> endobj\n%%EOF\n');

describe('media upload (/api/v1/upload-media) and serving (/api/v1/media/{media})', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await startTestApp();
  });
  afterAll(async () => t?.close());

  const upload = (data: Buffer, filename: string, contentType: string, ip?: string) =>
    t.req('post', '/api/v1/upload-media', { ip }).attach('file', data, { filename, contentType });

  it.each([
    ['PNG', PNG, 'image/png', 'png'],
    ['JPEG', JPEG, 'image/jpeg', 'jpg'],
    ['WebP', WEBP, 'image/webp', 'webp'],
    ['PDF', PDF, 'application/pdf', 'pdf'],
  ])('accepts %s by content (whatever the client claims), stores and serves it', async (_name, data, mime, ext) => {
    const res = await upload(data, 'whatever.bin', 'application/octet-stream', '10.77.0.1').expect(201);
    const { id, url, type, size } = res.body.data;
    expect(res.body.data).toEqual({ id: expect.any(String), url: `/api/v1/media/${id}`, type: mime, size: data.length });
    expect(Object.keys(res.body.data).sort()).toEqual(['id', 'size', 'type', 'url']);
    expect([type, size]).toEqual([mime, data.length]);

    const [row] = await t.ds.query(`SELECT path, mime_type, size_bytes, sha256, uploader_ip, original_name FROM media WHERE id = $1`, [id]);
    expect(row).toEqual({ path: `${id}.${ext}`, mime_type: mime, size_bytes: data.length, sha256: createHash('sha256').update(data).digest('hex'), uploader_ip: '10.77.0.1', original_name: 'whatever.bin' });
    const file = join(t.config.dataDir, 'uploads', `${id}.${ext}`);
    expect(existsSync(file)).toBe(true);
    expect(readFileSync(file).equals(data)).toBe(true);

    const served = await t.http.get(url).buffer(true).parse((r, cb) => {
      const chunks: Buffer[] = [];
      r.on('data', (c: Buffer) => chunks.push(c));
      r.on('end', () => cb(null, Buffer.concat(chunks)));
    }).expect(200);
    expect(served.headers['content-type']).toContain(mime);
    expect(served.headers['x-content-type-options']).toBe('nosniff');
    expect(Number(served.headers['content-length'])).toBe(data.length);
    expect((served.body as Buffer).equals(data)).toBe(true);
  });

  it('refuses other content with 415 even when the client calls it an image', async () => {
    const res = await upload(Buffer.from('<svg xmlns="http://www.w3.org/2000/svg"></svg>'), 'x.png', 'image/png').expect(415);
    expect(res.body).toMatchObject({ success: false, code: 'UNSUPPORTED_MEDIA_TYPE' });
    await upload(Buffer.from('GIF89a......'), 'x.gif', 'image/gif').expect(415);
    const before = await t.ds.query(`SELECT count(*)::int AS n FROM media`);
    await upload(Buffer.from('MZ executable'), 'x.pdf', 'application/pdf').expect(415);
    expect(await t.ds.query(`SELECT count(*)::int AS n FROM media`)).toEqual(before);
  });

  it('refuses a file over 10 MB with 413 and stores nothing', async () => {
    const before = await t.ds.query(`SELECT count(*)::int AS n FROM media`);
    const big = Buffer.alloc(10 * 1024 * 1024 + 1, 0);
    PNG.copy(big);
    const res = await upload(big, 'big.png', 'image/png').expect(413);
    expect(res.body).toMatchObject({ success: false, code: 'PAYLOAD_TOO_LARGE' });
    expect(await t.ds.query(`SELECT count(*)::int AS n FROM media`)).toEqual(before);
    // Exactly 10 MB is fine.
    await upload(big.subarray(0, 10 * 1024 * 1024), 'ok.png', 'image/png').expect(201);
  });

  it('needs the `file` field: none is 422, another field name is 400', async () => {
    const none = await t.req('post', '/api/v1/upload-media').field('note', 'x').expect(400);
    expect(none.body.success).toBe(false);
    const empty = await t.req('post', '/api/v1/upload-media', { body: {} }).expect(422);
    expect(empty.body.errors).toEqual({ file: ['is required'] });
    const other = await t.req('post', '/api/v1/upload-media').attach('image', PNG, 'a.png').expect(400);
    expect(other.body.success).toBe(false);
  });

  it('throttles uploads to 20 a minute per client address, without touching other addresses or routes', async () => {
    const ip = '10.77.1.1';
    for (let i = 0; i < 20; i++) await upload(PNG, 'a.png', 'image/png', ip).expect(201);
    const limited = await upload(PNG, 'a.png', 'image/png', ip).expect(429);
    expect(limited.body.code).toBe('THROTTLED');
    expect(limited.headers['retry-after']).toBeDefined();
    await upload(PNG, 'a.png', 'image/png', '10.77.1.2').expect(201);
    // PUB-T routes keep their own limit of 5 a minute.
    for (let i = 0; i < 5; i++) await t.req('post', '/api/v1/auth/login', { ip, body: { email: 'x@example.test', password: 'nope' } }).expect(401);
    await t.req('post', '/api/v1/auth/login', { ip, body: { email: 'x@example.test', password: 'nope' } }).expect(429);
  });

  it('serves 404 for an unknown or malformed id', async () => {
    const res = await t.http.get('/api/v1/media/00000000-0000-4000-8000-000000000000').expect(404);
    expect(res.body.code).toBe('NOT_FOUND');
    await t.http.get('/api/v1/media/../../etc/passwd').expect(404);
    await t.http.get('/api/v1/media/not-a-uuid').expect(404);
  });
});
