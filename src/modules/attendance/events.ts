export {};

/** A driver's day (src/common/outbox/event-catalogue.ts: declaration merging); the aggregate is the day, the actor the driver. */
declare module '../../common/outbox/event-catalogue' {
  interface EventCatalogue {
    'attendance.checked_in': { driver_id: string; work_date: string; truck_id: string | null; lat: number; lng: number };
    'attendance.break_started': { driver_id: string; work_date: string; break_id: string };
    'attendance.break_ended': { driver_id: string; work_date: string; break_id: string; minutes: number };
    /** `auto`: closed at the end of its date because the driver checked in on a later day without checking out. */
    'attendance.checked_out': { driver_id: string; work_date: string; worked_minutes: number; auto: boolean };
    'attendance.resumed': { driver_id: string; work_date: string };
  }
}
