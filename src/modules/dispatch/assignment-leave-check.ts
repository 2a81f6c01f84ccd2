import { Injectable } from '@nestjs/common';
import type { Scope } from '../../common/access/scope';
import { ApiError } from '../../common/http/api-error';

/**
 * What answers "is this driver on leave that day": the leaves module's `LeaveCalendar`.
 * It reads in the caller's unit of work (src/modules/leaves/leave-calendar.ts).
 */
export interface DriverLeaveSource {
  /** Whether the driver has an approved leave on `date` (YYYY-MM-DD, the company's local date), in the caller's unit of work. */
  onLeave(scope: Scope, driverId: string, date: string): Promise<boolean>;
  /** Optional batch form (the dispatch context asks for every driver at once); else `onLeave` per driver. */
  onLeaveAmong?(scope: Scope, driverIds: readonly string[], date: string): Promise<Set<string>>;
}

/**
 * The leave hook of assignment (domain.md §5: "an active driver of the company, not on leave that day").
 * The leaves module (layer 5, like dispatch) plugs its calendar in at start, in the style of the in-use
 * registry: `LeaveCalendar` (src/modules/leaves/leave-calendar.ts) registers itself here in
 * `onModuleInit` (LeavesModule imports DispatchModule; dispatch never imports leaves). Without a
 * registered source (an app built without LeavesModule) nobody is on leave.
 *
 * Assignment, reassignment, bulk and job updates answer 422 `DRIVER_ON_LEAVE` (naming the driver field)
 * for a driver on approved leave that day; the dispatch context and `GET /available/drivers` show
 * `on_leave` (the latter leaves such drivers out).
 */
@Injectable()
export class DriverLeaveCheck {
  private source: DriverLeaveSource | null = null;

  /** Registers the real calendar (once). */
  register(source: DriverLeaveSource): void {
    if (this.source && this.source !== source) throw new Error('DriverLeaveCheck: a leave source is already registered');
    this.source = source;
  }

  /** Whether the scope's company's driver is on approved leave on `date`. */
  onLeave(scope: Scope, driverId: string, date: string): Promise<boolean> {
    return this.source ? this.source.onLeave(scope, driverId, date) : Promise.resolve(false);
  }

  /** Which of the scope's company's drivers are on approved leave on `date` (one read with a batch source). */
  async onLeaveAmong(scope: Scope, driverIds: readonly string[], date: string): Promise<Set<string>> {
    if (!this.source || !driverIds.length) return new Set();
    if (this.source.onLeaveAmong) return this.source.onLeaveAmong(scope, driverIds, date);
    const out = new Set<string>();
    for (const id of driverIds) if (await this.source.onLeave(scope, id, date)) out.add(id);
    return out;
  }

  /** 422 `DRIVER_ON_LEAVE` (on `field`) when the driver is on leave on `date`. */
  async assertAvailable(scope: Scope, driverId: string, date: string, field = 'driver_id'): Promise<void> {
    if (await this.onLeave(scope, driverId, date)) {
      throw ApiError.unprocessable('DRIVER_ON_LEAVE', `The driver is on leave on ${date}.`, { [field]: [`is on leave on ${date}`] });
    }
  }
}
