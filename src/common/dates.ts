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

/** One formatter per time zone for wall-clock parts (year … minute, 24-hour). */
const clockFormats = new Map<string, Intl.DateTimeFormat>();

function wallClock(timezone: string, at: Date): { y: number; mo: number; d: number; h: number; mi: number; s: number } {
  let format = clockFormats.get(timezone);
  if (!format) {
    format = new Intl.DateTimeFormat('en-US', { timeZone: timezone, hourCycle: 'h23', year: 'numeric', month: '2-digit', day: '2-digit', hour: '2-digit', minute: '2-digit', second: '2-digit' });
    clockFormats.set(timezone, format);
  }
  const parts = Object.fromEntries(format.formatToParts(at).map((p) => [p.type, p.value]));
  return { y: +parts.year, mo: +parts.month, d: +parts.day, h: +parts.hour % 24, mi: +parts.minute, s: +parts.second };
}

/**
 * The instant of a wall-clock time (`HH:MM`) on a date (`YYYY-MM-DD`) in a time zone (issue #26: the
 * shift start). A time a DST change skips is taken at the offset before it.
 */
export function instantIn(timezone: string, date: string, time: string): Date {
  const [y, mo, d] = date.split('-').map(Number);
  const [h, mi] = time.split(':').map(Number);
  const wanted = Date.UTC(y, mo - 1, d, h, mi);
  // The zone's offset at a guess, then at the corrected guess (the offset may differ across a DST change).
  let at = wanted;
  for (let i = 0; i < 2; i++) {
    const w = wallClock(timezone, new Date(at));
    at += wanted - Date.UTC(w.y, w.mo - 1, w.d, w.h, w.mi, w.s);
  }
  return new Date(at);
}

/** The wall-clock time `HH:MM` of an instant in a time zone ("about 10:40"). */
export function clockIn(timezone: string, at: Date): string {
  const w = wallClock(timezone, at);
  return `${String(w.h).padStart(2, '0')}:${String(w.mi).padStart(2, '0')}`;
}
