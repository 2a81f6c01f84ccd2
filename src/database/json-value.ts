/** A `json` value selected by raw SQL, as the driver returns it: parsed by node-postgres, a string from some adapters. */
export function jsonValue<T>(v: unknown): T {
  return (typeof v === 'string' ? JSON.parse(v) : v) as T;
}
