import { Injectable, OnModuleInit } from '@nestjs/common';
import { Scope } from '../../common/access/scope';
import type { ThreadedManager } from '../../database/threaded-manager';
import { DriverLeaveCheck, type DriverLeaveSource } from '../dispatch';
import { LeaveRepository } from './leave.repository';

/**
 * The leave calendar dispatch asks "is this driver on leave that day" (`DriverLeaveCheck`, the hook
 * dispatch exports): registered at start, so that assignment refuses a driver on leave (422
 * `DRIVER_ON_LEAVE`) and the dispatch context shows `on_leave`. Reads in the caller's unit of work.
 * Served by idx_leaves_driver_start.
 *
 * The hook's signature is dispatch's (a manager and a bare company id, until dispatch's conversion): the
 * manager is ignored (the unit of work carries it), the company id becomes a `Scope` here.
 */
@Injectable()
export class LeaveCalendar implements DriverLeaveSource, OnModuleInit {
  constructor(
    private readonly check: DriverLeaveCheck,
    private readonly leaves: LeaveRepository,
  ) {}

  onModuleInit(): void {
    this.check.register(this);
  }

  onLeave(_m: ThreadedManager, companyId: string, driverId: string, date: string): Promise<boolean> {
    return this.leaves.onLeave(Scope.company(companyId), driverId, date);
  }

  async onLeaveAmong(_m: ThreadedManager, companyId: string, driverIds: readonly string[], date: string): Promise<Set<string>> {
    if (!driverIds.length) return new Set();
    return this.leaves.onLeaveAmong(Scope.company(companyId), driverIds, date);
  }
}
