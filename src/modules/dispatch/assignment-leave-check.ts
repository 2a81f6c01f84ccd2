import { Injectable } from '@nestjs/common';
import type { EntityManager } from 'typeorm';
import { ApiError } from '../../common/http/api-error';

/** What answers "is this driver on leave that day" (the leaves module, once it exists). */
export interface DriverLeaveSource {
  /** Whether the driver has an approved leave on `date` (YYYY-MM-DD, the company's local date). Read through `m`. */
  onLeave(m: EntityManager, companyId: string, driverId: string, date: string): Promise<boolean>;
  /** Optional batch form (the dispatch context asks for every driver at once); else `onLeave` per driver. */
  onLeaveAmong?(m: EntityManager, companyId: string, driverIds: readonly string[], date: string): Promise<Set<string>>;
}

/**
 * The leave hook of assignment (domain.md §5: "an active driver of the company, not on leave that day").
 * Leaves do not exist yet, so by default nobody is on leave. The leaves module (layer 5, like dispatch)
 * plugs its calendar in at start, in the style of the in-use registry:
 *
 * ```ts
 * @Injectable()
 * export class LeaveCalendar implements DriverLeaveSource, OnModuleInit {
 *   constructor(private readonly leaveCheck: DriverLeaveCheck) {} // LeavesModule imports DispatchModule
 *   onModuleInit() { this.leaveCheck.register(this); }
 *   async onLeave(m, companyId, driverId, date) { ...an approved leave date of the driver on `date`... }
 * }
 * ```
 *
 * Assignment, reassignment, bulk and job updates then answer 409 `DRIVER_ON_LEAVE`; the dispatch context
 * and `GET /available/drivers` show `on_leave` (the latter leaves such drivers out).
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

  /** 409 `DRIVER_ON_LEAVE` when the driver is on leave on `date`. */
  async assertAvailable(m: EntityManager, companyId: string, driverId: string, date: string): Promise<void> {
    if (await this.onLeave(m, companyId, driverId, date)) throw ApiError.conflict('DRIVER_ON_LEAVE', `The driver is on leave on ${date}.`);
  }
}
