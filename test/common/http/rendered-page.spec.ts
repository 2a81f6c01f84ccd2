import { RenderedPage } from '../../../src/common/http/envelope';

/** A page rendered by its statement is replied as the bytes of its envelope (src/common/http/envelope.ts). */
describe('RenderedPage', () => {
  const meta = { page: 2, per_page: 3, total: 7, last_page: 3 };
  const cases: [string, string[]][] = [
    ['no documents', []],
    ['one', ['{"id":"a"}']],
    ['several, with text that is more than one byte per character', ['{"name":"Zoë Müller"}', '{"name":"渋谷区 🚛"}', '{"notes":"line\\nbreak \\"quoted\\""}']],
  ];
  it.each(cases)('%s: the body is the UTF-8 of the envelope, and parses as toJSON gives it', (_name, docs) => {
    const page = new RenderedPage(docs, meta);
    const text = `{"success":true,"data":[${docs.join(',')}],"meta":${JSON.stringify(meta)}}`;
    expect(page.body.equals(Buffer.from(text, 'utf8'))).toBe(true);
    expect(JSON.parse(page.body.toString('utf8'))).toEqual(page.toJSON());
  });
});
