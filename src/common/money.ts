/**
 * Money is an integer count of the currency's minor unit (12999 = 129.99); rates are basis points
 * (825 = 8.25 %). Nothing here uses floating point for amounts: products go through BigInt and are
 * rounded half up (away from zero for negative amounts), per line.
 */
export type Minor = number;

function assertInt(name: string, v: number): void {
  if (!Number.isSafeInteger(v)) throw new RangeError(`${name} must be a safe integer, got ${v}`);
}

/** round(numerator / denominator), half away from zero, on integers. */
export function divRoundHalfUp(numerator: bigint, denominator: bigint): bigint {
  if (denominator === 0n) throw new RangeError('division by zero');
  if (denominator < 0n) {
    numerator = -numerator;
    denominator = -denominator;
  }
  const negative = numerator < 0n;
  const abs = negative ? -numerator : numerator;
  const q = (abs * 2n + denominator) / (denominator * 2n);
  return negative ? -q : q;
}

/** amount × bps / 10 000, half up. `applyBps(1999, 825)` = 165. */
export function applyBps(amount: Minor, bps: number): Minor {
  assertInt('amount', amount);
  assertInt('bps', bps);
  return Number(divRoundHalfUp(BigInt(amount) * BigInt(bps), 10_000n));
}

/** unitPrice × quantity / per, half up: e.g. a price per tonne (per = 1000) for a weight in kg. */
export function prorate(unitPrice: Minor, quantity: number, per = 1): Minor {
  assertInt('unitPrice', unitPrice);
  assertInt('quantity', quantity);
  assertInt('per', per);
  return Number(divRoundHalfUp(BigInt(unitPrice) * BigInt(quantity), BigInt(per)));
}

export function sumMinor(values: Minor[]): Minor {
  let total = 0n;
  for (const v of values) {
    assertInt('value', v);
    total += BigInt(v);
  }
  const n = Number(total);
  assertInt('sum', n);
  return n;
}

/** Parses a decimal string ("129.99") into minor units, exactly; throws on more digits than the currency has. */
export function parseMajor(text: string, fractionDigits = 2): Minor {
  const m = /^(-)?(\d+)(?:\.(\d+))?$/.exec(text.trim());
  if (!m) throw new RangeError(`not a decimal amount: '${text}'`);
  const frac = m[3] ?? '';
  if (frac.length > fractionDigits) throw new RangeError(`too many decimals in '${text}'`);
  const v = BigInt(m[2] + frac.padEnd(fractionDigits, '0'));
  const n = Number(m[1] ? -v : v);
  assertInt('amount', n);
  return n;
}

/** Minor units as a plain decimal string, for documents (PDF, CSV), never for arithmetic. */
export function formatMinor(amount: Minor, fractionDigits = 2): string {
  assertInt('amount', amount);
  const negative = amount < 0;
  const digits = String(Math.abs(amount)).padStart(fractionDigits + 1, '0');
  const whole = digits.slice(0, digits.length - fractionDigits);
  const frac = fractionDigits ? '.' + digits.slice(-fractionDigits) : '';
  return (negative ? '-' : '') + whole + frac;
}

/** Fraction digits of the ISO 4217 currencies a hauler is likely to use; 2 for any other. */
export function currencyDigits(currency: string): number {
  const zero = ['JPY', 'KRW', 'VND', 'CLP', 'ISK', 'XAF', 'XOF'];
  const three = ['BHD', 'KWD', 'OMR', 'JOD', 'TND'];
  const c = currency.toUpperCase();
  return zero.includes(c) ? 0 : three.includes(c) ? 3 : 2;
}
