import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { loadConfig } from '../../src/config/app-config';
import { S3Stub } from '../support/s3-stub';
import { startTestApp, TestApp, testDatabaseKind } from '../support/test-app';

/**
 * MEDIA_STORAGE=s3 (docs/fleet.md): uploads go to an S3-compatible bucket (here a stub on a loopback port),
 * so every instance serves every file: uploaded through one instance, read through another.
 */
const PNG = Buffer.concat([Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]), Buffer.from('IHDR-a-site-photo')]);
const PDF = Buffer.from('%PDF-1.7\n1 0 obj << >> endobj\n%%EOF\n');
const base = { JWT_SECRET: 'x'.repeat(40), DATA_DIR: '/tmp/haulops-s3-config' };

describe('media storage configuration', () => {
  it('is local by default; s3 needs a bucket, and both keys or neither', () => {
    expect(loadConfig(base).mediaStorage).toBe('local');
    expect(() => loadConfig({ ...base, MEDIA_STORAGE: 'ftp' })).toThrow(/MEDIA_STORAGE must be local or s3/);
    expect(() => loadConfig({ ...base, MEDIA_STORAGE: 's3' })).toThrow(/S3_BUCKET is required with MEDIA_STORAGE=s3/);
    expect(() => loadConfig({ ...base, MEDIA_STORAGE: 's3', S3_BUCKET: 'Bad_Bucket' })).toThrow(/S3_BUCKET must be a bucket name/);
    expect(() => loadConfig({ ...base, MEDIA_STORAGE: 's3', S3_BUCKET: 'uploads', S3_ACCESS_KEY_ID: 'key' })).toThrow(/S3_SECRET_ACCESS_KEY is required/);
    expect(loadConfig({ ...base, MEDIA_STORAGE: 's3', S3_BUCKET: 'uploads', S3_ENDPOINT: 'http://minio:9000' }).s3).toEqual({ bucket: 'uploads', region: 'us-east-1', endpoint: 'http://minio:9000', forcePathStyle: true, accessKeyId: undefined, secretAccessKey: undefined });
    expect(loadConfig({ ...base, MEDIA_STORAGE: 's3', S3_BUCKET: 'uploads' }).s3?.forcePathStyle).toBe(false);
  });
});

describe('uploads in S3-compatible storage, shared by two instances', () => {
  const s3 = new S3Stub('haulops-media');
  let a: TestApp;
  let b: TestApp;
  beforeAll(async () => {
    await s3.start();
    const env = { MEDIA_STORAGE: 's3', S3_BUCKET: 'haulops-media', S3_ENDPOINT: s3.url, S3_ACCESS_KEY_ID: 'minioadmin', S3_SECRET_ACCESS_KEY: 'minioadmin' };
    a = await startTestApp({ env });
    // The second instance on the same database (PostgreSQL); on the embedded database a second app has its own.
    b = (await testDatabaseKind()) === 'postgres' ? await startTestApp({ env, databaseUrl: a.config.databaseUrl }) : a;
  });
  afterAll(async () => {
    if (b && b !== a) await b.close();
    await a?.close();
    await s3.stop();
  });

  const read = (t: TestApp, url: string) =>
    t.http.get(url).buffer(true).parse((r, cb) => {
      const chunks: Buffer[] = [];
      r.on('data', (c: Buffer) => chunks.push(c));
      r.on('end', () => cb(null, Buffer.concat(chunks)));
    });

  it('stores the upload in the bucket, not on the instance disk, and every instance serves it', async () => {
    for (const [data, mime] of [[PNG, 'image/png'], [PDF, 'application/pdf']] as const) {
      const res = await a.req('post', '/api/v1/upload-media').attach('file', data, { filename: 'ticket.bin', contentType: 'application/octet-stream' }).expect(201);
      const { id, url } = res.body.data;
      const [row] = await a.ds.query('SELECT storage, path FROM media WHERE id = $1', [id]);
      expect(row.storage).toBe('s3');
      expect(s3.objects.get(row.path)).toEqual({ body: data, type: mime });
      expect(existsSync(join(a.config.dataDir, 'uploads', row.path))).toBe(false);
      for (const t of [a, b]) {
        const served = await read(t, url).expect(200);
        expect(served.headers['content-type']).toBe(mime);
        expect((served.body as Buffer).equals(data)).toBe(true);
      }
    }
  });

  it('answers 404 when the object is gone from the bucket', async () => {
    const res = await a.req('post', '/api/v1/upload-media').attach('file', PNG, { filename: 'x.png', contentType: 'image/png' }).expect(201);
    const [row] = await a.ds.query('SELECT path FROM media WHERE id = $1', [res.body.data.id]);
    s3.objects.delete(row.path);
    const missing = await b.http.get(res.body.data.url).expect(404);
    expect(missing.body).toMatchObject({ success: false, code: 'NOT_FOUND' });
  });
});
