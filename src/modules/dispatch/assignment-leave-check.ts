import { Injectable } from '@nestjs/common';
import type { EntityManager } from 'typeorm';
import { ApiError } from '../../common/http/api-error';

/** What answers "is this driver on leave that day": the leaves module's `LeaveCalendar`. */
export interface DriverLeaveSource {
  /** Whether the driver has an approved leave on `date` (YYYY-MM-DD, the company's local date). Read through `m`. */
  onLeave(m: EntityManager, companyId: string, driverId: string, date: string): Promise<boolean>;
  /** Optional batch form (the dispatch context asks for every driver at once); else `onLeave` per driver. */
  onLeaveAmong?(m: EntityManager, companyId: string, driverIds: readonly string[], date: string): Promise<Set<string>>;
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
export class DriverLeaveCheck implements DriverLeaveSource {
  private source: DriverLeaveSource | null = null;

  /** Registers the real calendar (once). */
  register(source: DriverLeaveSource): void {
    if (this.source && this.source !== source) throw new Error('DriverLeaveCheck: a leave source is already registered');
    this.source = source;
  }

  onLeave(m: EntityManager, companyId: string, driverId: string, date: string): Promise<boolean> {
    return this.source ? this.source.onLeave(m, companyId, driverId, date) : Promise.resolve(false);
  }

  async onLeaveAmong(m: EntityManager, companyId: string, driverIds: readonly string[], date: string): Promise<Set<string>> {
    if (!this.source || !driverIds.length) return new Set();
    if (this.source.onLeaveAmong) return this.source.onLeaveAmong(m, companyId, driverIds, date);
    const out = new Set<string>();
    for (const id of driverIds) if (await this.source.onLeave(m, companyId, id, date)) out.add(id);
    return out;
  }

  /** 422 `DRIVER_ON_LEAVE` (on `field`) when the driver is on leave on `date`. */
  async assertAvailable(m: EntityManager, companyId: string, driverId: string, date: string, field = 'driver_id'): Promise<void> {
    if (await this.onLeave(m, companyId, driverId, date)) {
      throw ApiError.unprocessable('DRIVER_ON_LEAVE', `The driver is on leave on ${date}.`, { [field]: [`is on leave on ${date}`] });
    }
  }
}
