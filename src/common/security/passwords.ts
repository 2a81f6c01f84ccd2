import { randomBytes, randomInt, scrypt as scryptCb, timingSafeEqual, createHmac } from 'node:crypto';
import { promisify } from 'node:util';

const scrypt = promisify(scryptCb) as (password: string, salt: Buffer, keylen: number, options: object) => Promise<Buffer>;

// scrypt (memory-hard, OpenSSL, run off the event loop). N = 2^15 ≈ 80 ms on this machine's cores.
let N = 1 << 15;
const R = 8;
const P = 1;
const KEYLEN = 32;
const MAXMEM = 64 * 1024 * 1024;

/**
 * The cost of new hashes for this process: log2 of N (config `PASSWORD_HASH_COST`, default 15), set by
 * `createApp`. A stored hash keeps the N it was made with, so changing it never locks anyone out. The
 * tests lower it (test/support/test-app.ts): they create hundreds of accounts.
 */
export function setPasswordHashCost(log2N: number): void {
  N = 1 << log2N;
}

/** `scrypt$N$r$p$salt$hash`, base64url parts. */
export async function hashPassword(password: string): Promise<string> {
  const salt = randomBytes(16);
  const key = await scrypt(password, salt, KEYLEN, { N, r: R, p: P, maxmem: MAXMEM });
  return ['scrypt', N, R, P, salt.toString('base64url'), key.toString('base64url')].join('$');
}

export async function verifyPassword(password: string, stored: string | null | undefined): Promise<boolean> {
  if (!stored) {
    // Spend the same time as a real check, so absent accounts are not told apart by timing.
    await hashPassword(password);
    return false;
  }
  const [alg, n, r, p, salt, key] = stored.split('$');
  if (alg !== 'scrypt') return false;
  const expected = Buffer.from(key, 'base64url');
  const actual = await scrypt(password, Buffer.from(salt, 'base64url'), expected.length, { N: Number(n), r: Number(r), p: Number(p), maxmem: MAXMEM });
  return actual.length === expected.length && timingSafeEqual(actual, expected);
}

/** A 6-digit one-time code. */
export const newOneTimeCode = (): string => String(randomInt(0, 1_000_000)).padStart(6, '0');

/** One-time codes are short, so they are stored as a keyed hash (HMAC with the server secret). */
export const hashCode = (secret: string, scope: string, code: string): string =>
  createHmac('sha256', secret).update(`${scope}:${code}`).digest('base64url');
