/** The accepted upload types, recognised by their first bytes (never by the client's Content-Type or name). */
export interface MediaType {
  mime: 'image/jpeg' | 'image/png' | 'image/webp' | 'application/pdf';
  ext: 'jpg' | 'png' | 'webp' | 'pdf';
}

const starts = (b: Buffer, bytes: number[], at = 0) => b.length >= at + bytes.length && bytes.every((x, i) => b[at + i] === x);
const ascii = (s: string) => [...s].map((c) => c.charCodeAt(0));

export function sniffMediaType(b: Buffer): MediaType | null {
  if (starts(b, [0xff, 0xd8, 0xff])) return { mime: 'image/jpeg', ext: 'jpg' };
  if (starts(b, [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a])) return { mime: 'image/png', ext: 'png' };
  if (starts(b, ascii('RIFF')) && starts(b, ascii('WEBP'), 8)) return { mime: 'image/webp', ext: 'webp' };
  if (starts(b, ascii('%PDF-'))) return { mime: 'application/pdf', ext: 'pdf' };
  return null;
}

export const EXT_BY_MIME: Record<MediaType['mime'], MediaType['ext']> = {
  'image/jpeg': 'jpg',
  'image/png': 'png',
  'image/webp': 'webp',
  'application/pdf': 'pdf',
};
