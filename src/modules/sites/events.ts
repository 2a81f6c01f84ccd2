/** Lots' and stations' holidays: `<kind>.<verb>` (their created/updated/deleted are record events). */
export type SiteEventKind = 'lot' | 'station';
export interface SiteEventPayloads {
  holiday_created: { holiday_id: string; date: string; name: string };
  holiday_updated: { holiday_id: string; date: string; name: string };
  holiday_deleted: { holiday_id: string; date: string };
  holidays_replaced: { count: number };
  /** Issue #25: one weekday's hours changed (null: closed), and a date's opening exception set or removed. */
  weekday_hours_set: { weekday: string; hours: { open: string; close: string } | null };
  opening_exception_set: { date: string; hours: { open: string; close: string } | null; note: string | null };
  opening_exception_deleted: { date: string };
}
type SiteEvents = { [K in `${SiteEventKind}.${keyof SiteEventPayloads}`]: K extends `${SiteEventKind}.${infer V extends keyof SiteEventPayloads}` ? SiteEventPayloads[V] : never };

/** The sites module's events (src/common/outbox/event-catalogue.ts: declaration merging). */
declare module '../../common/outbox/event-catalogue' {
  interface RecordEventPrefixes {
    lot: true;
    station: true;
  }
  interface EventCatalogue extends SiteEvents {}
}
