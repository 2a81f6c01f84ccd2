/** One formatter per time zone: building an `Intl.DateTimeFormat` costs far more than using one. */
const dayFormats = new Map<string, Intl.DateTimeFormat>();
/** The last answer per time zone and the second it holds for (every order of a list asks "today"; formatting was 1 % of a read). */
const todays = new Map<string, { second: number; day: string }>();

/** The service date today in a time zone (YYYY-MM-DD). An invalid time zone throws (RangeError) and is not cached. */
export function todayIn(timezone: string, now?: Date): string {
  if (now) return dayIn(timezone, now);
  const at = Date.now();
  const second = Math.floor(at / 1000);
  const known = todays.get(timezone);
  if (known?.second === second) return known.day;
  const day = dayIn(timezone, new Date(at));
  todays.set(timezone, { second, day });
  return day;
}

function dayIn(timezone: string, now: Date): string {
  let format = dayFormats.get(timezone);
  if (!format) {
    format = new Intl.DateTimeFormat('en-CA', { timeZone: timezone, year: 'numeric', month: '2-digit', day: '2-digit' });
    dayFormats.set(timezone, format);
  }
  return format.format(now);
}
