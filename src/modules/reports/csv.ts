import { StreamableFile } from '@nestjs/common';
import { ApiHeader, DECORATORS } from '@nestjs/swagger';
import { stringify } from 'csv-stringify';
import { Readable } from 'node:stream';

export type CsvCell = string | number | null;

/** Whether the caller asked for CSV: `format=csv`, or no `format` and `Accept` naming `text/csv`. */
export const wantsCsv = (format: string | undefined, accept: string | undefined) => format === 'csv' || (format === undefined && /\btext\/csv\b/i.test(accept ?? ''));

/**
 * A CSV download (RFC 4180, `csv-stringify`, a header row), streamed row by row as the rows come
 * (an async iterable is read as the client takes the bytes), `attachment; filename="…"`.
 */
export function csvFile(filename: string, columns: readonly string[], rows: Iterable<CsvCell[]> | AsyncIterable<CsvCell[]>): StreamableFile {
  const out = stringify({ header: true, columns: [...columns] });
  const source = Readable.from(rows);
  source.on('error', (e) => out.destroy(e));
  source.pipe(out);
  return new StreamableFile(out, { type: 'text/csv; charset=utf-8', disposition: `attachment; filename="${filename}"` });
}

/**
 * Documents the CSV alternative of a route's 200 answer (apply above `@Endpoint`): the JSON envelope
 * stays under `application/json`, `text/csv` is added with its header row as the example, and the
 * optional `Accept` header the route reads (`wantsCsv`) is declared.
 */
export function CsvAlternative(example: string) {
  return (_target: object, _key?: string | symbol, descriptor?: PropertyDescriptor) => {
    if (!descriptor) throw new Error('CsvAlternative documents routes (methods) only');
    const responses = { ...(Reflect.getMetadata(DECORATORS.API_RESPONSE, descriptor.value) ?? {}) } as Record<string, { description?: string; schema?: unknown }>;
    const ok = responses['200'];
    if (!ok?.schema) throw new Error('CsvAlternative: apply it above @Endpoint');
    responses['200'] = {
      description: `${ok.description ?? 'Success'}: JSON, or with \`format=csv\` (or \`Accept: text/csv\`) a CSV download with a header row (\`Content-Disposition: attachment; filename="…"\`).`,
      content: { 'application/json': { schema: ok.schema }, 'text/csv': { schema: { type: 'string' }, example } },
    } as never;
    Reflect.defineMetadata(DECORATORS.API_RESPONSE, responses, descriptor.value);
    ApiHeader({ name: 'Accept', required: false, description: '`text/csv` for the CSV download when no `format` is given; anything else answers JSON.', schema: { type: 'string' } })(_target, _key!, descriptor);
    return descriptor;
  };
}
