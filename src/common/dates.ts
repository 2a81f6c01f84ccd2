/** One formatter per time zone: building an `Intl.DateTimeFormat` costs far more than using one. */
const dayFormats = new Map<string, Intl.DateTimeFormat>();

/** The service date today in a time zone (YYYY-MM-DD). An invalid time zone throws (RangeError) and is not cached. */
export function todayIn(timezone: string, now = new Date()): string {
  let format = dayFormats.get(timezone);
  if (!format) {
    format = new Intl.DateTimeFormat('en-CA', { timeZone: timezone, year: 'numeric', month: '2-digit', day: '2-digit' });
    dayFormats.set(timezone, format);
  }
  return format.format(now);
}
