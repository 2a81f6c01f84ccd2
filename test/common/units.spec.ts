import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { plainToInstance } from 'class-transformer';
import { validateSync } from 'class-validator';
import { applyBps, divRoundHalfUp, formatMinor, parseMajor, prorate, sumMinor } from '../../src/common/money';
import { loadConfig } from '../../src/config/app-config';
import { flattenValidationErrors, validationPipe } from '../../src/common/http/validation';
import { ApiError } from '../../src/common/http/api-error';
import { CreateAddressDto } from '../../src/modules/customers/customer-address.dto';
import { ChangeRequestBodyDto } from '../../src/modules/orders/change-requests.dto';
import { pageMeta } from '../../src/common/http/pagination';
import { RegisterDto } from '../../src/modules/auth/auth.dto';
import { hashPassword, verifyPassword } from '../../src/common/security/passwords';

describe('money helpers', () => {
  it('applies basis points with half-up rounding per line', () => {
    expect(applyBps(1999, 825)).toBe(165); // 164.9175 → 165
    expect(applyBps(10000, 825)).toBe(825);
    expect(applyBps(2, 2500)).toBe(1); // 0.5 → 1
    expect(applyBps(1, 4999)).toBe(0); // 0.4999 → 0
    expect(applyBps(-2, 2500)).toBe(-1); // half away from zero
    expect(applyBps(0, 825)).toBe(0);
  });
  it('prorates a per-tonne price for kilograms', () => {
    expect(prorate(8500, 1250, 1000)).toBe(10625);
    expect(prorate(8500, 1, 1000)).toBe(9); // 8.5 → 9
    expect(prorate(1999, 3)).toBe(5997);
  });
  it('divides on integers only and refuses non-integers', () => {
    expect(divRoundHalfUp(5n, 2n)).toBe(3n);
    expect(divRoundHalfUp(-5n, 2n)).toBe(-3n);
    expect(divRoundHalfUp(5n, -2n)).toBe(-3n);
    expect(() => applyBps(10.5, 100)).toThrow(RangeError);
    expect(() => divRoundHalfUp(1n, 0n)).toThrow(RangeError);
  });
  it('sums, parses and formats minor units exactly', () => {
    expect(sumMinor([12999, 1, -500])).toBe(12500);
    expect(parseMajor('129.99')).toBe(12999);
    expect(parseMajor('0.1')).toBe(10);
    expect(parseMajor('-3')).toBe(-300);
    expect(() => parseMajor('1.234')).toThrow();
    expect(formatMinor(12999)).toBe('129.99');
    expect(formatMinor(-5)).toBe('-0.05');
    expect(formatMinor(1500, 0)).toBe('1500');
  });
});

describe('configuration', () => {
  const dir = () => mkdtempSync(join(tmpdir(), 'haulops-cfg-'));
  it.each([
    ['PORT', 'abc'],
    ['PORT', '70000'],
    ['DATABASE_URL', 'mysql://x'],
    ['DATABASE_URL', 'not a url'],
    ['REDIS_URL', 'http://x'],
    ['JWT_SECRET', 'short'],
    ['ADMIN_REGISTRATION_KEY', 'tiny'],
    ['SMTP_URL', 'ftp://mail'],
    ['MAIL_FROM', 'nobody'],
    ['TRUST_PROXY', 'yes please!'],
    ['LOG_LEVEL', 'chatty'],
    ['DATA_DIR_LOCK_WAIT_MS', '-1'],
    ['DATA_DIR_LOCK_WAIT_MS', '600001'],
  ])('names the bad variable %s=%s', (name, value) => {
    expect(() => loadConfig({ DATA_DIR: dir(), [name]: value })).toThrow(new RegExp(`^Invalid configuration: ${name} `));
  });
  it('has working defaults and keeps a generated JWT secret in the data folder', () => {
    const d = dir();
    const a = loadConfig({ DATA_DIR: d });
    expect(a).toMatchObject({ port: 3000, logLevel: 'info', trustProxy: false, databaseUrl: undefined });
    expect(a.jwtSecret.length).toBeGreaterThanOrEqual(32);
    expect(readFileSync(join(d, 'jwt-secret'), 'utf8').trim()).toBe(a.jwtSecret);
    expect(loadConfig({ DATA_DIR: d }).jwtSecret).toBe(a.jwtSecret);
    expect(loadConfig({ DATA_DIR: dir() }).jwtSecret).not.toBe(a.jwtSecret);
  });
  it('parses TRUST_PROXY forms', () => {
    expect(loadConfig({ DATA_DIR: dir(), TRUST_PROXY: 'true' }).trustProxy).toBe(true);
    expect(loadConfig({ DATA_DIR: dir(), TRUST_PROXY: '2' }).trustProxy).toBe(2);
    expect(loadConfig({ DATA_DIR: dir(), TRUST_PROXY: 'loopback, 10.0.0.0/8' }).trustProxy).toBe('loopback, 10.0.0.0/8');
  });
});

describe('validation and pagination helpers', () => {
  it('flattens errors per field, without the property name in the message', () => {
    const dto = plainToInstance(RegisterDto, { name: '', email: 'x', password: 'abcdefgh', type: 'company' });
    const errors = flattenValidationErrors(validateSync(dto));
    expect(errors.email).toEqual(['must be an email']);
    expect(errors.password).toEqual(['must contain a digit']);
    expect(errors.name).toEqual(['should not be empty']);
  });
  it('says `is required` of a required field that was not sent (not what a value would have to be)', async () => {
    const errorsOf = async (metatype: new () => object, body: object) => {
      try {
        await validationPipe.transform(body, { type: 'body', metatype });
        return {};
      } catch (e) {
        return (e as ApiError).errors;
      }
    };
    const address = { label: 'Job site', line1: '42 Oak Street', city: 'Springfield', region: 'IL', postal_code: '62704', country: 'US', longitude: -89.6501 };
    expect((await errorsOf(CreateAddressDto, address))?.latitude).toEqual(['is required']);
    // A value that is there but wrong still says what is wrong with it; null is a value.
    expect((await errorsOf(CreateAddressDto, { ...address, latitude: 91 }))?.latitude).toEqual(['must not be greater than 90']);
    expect((await errorsOf(CreateAddressDto, { ...address, latitude: null }))?.latitude).not.toEqual(['is required']);
    // A rule's own "is required …" is kept.
    expect((await errorsOf(ChangeRequestBodyDto, { type: 'swap' }))?.date).toEqual(['is required for type swap']);
    // An unknown field is still "is not allowed".
    expect((await errorsOf(CreateAddressDto, { ...address, latitude: 39.78, colour: 'red' }))?.colour).toEqual(['is not allowed']);
  });
  it('computes page meta', () => {
    expect(pageMeta(57, { page: 2, per_page: 20 })).toEqual({ page: 2, per_page: 20, total: 57, last_page: 3 });
    expect(pageMeta(0, {})).toEqual({ page: 1, per_page: 20, total: 0, last_page: 1 });
  });
});

describe('passwords', () => {
  it('hashes with scrypt and a salt, and verifies', async () => {
    const h = await hashPassword('secret-pass-1');
    expect(h).toMatch(/^scrypt\$32768\$8\$1\$/);
    expect(await hashPassword('secret-pass-1')).not.toBe(h);
    expect(await verifyPassword('secret-pass-1', h)).toBe(true);
    expect(await verifyPassword('secret-pass-2', h)).toBe(false);
    expect(await verifyPassword('secret-pass-1', null)).toBe(false);
  });
});
