import { Injectable, OnModuleInit } from '@nestjs/common';
import type { Scope } from '../../common/access/scope';
import { DriverLeaveCheck, type DriverLeaveSource } from '../dispatch';
import { LeaveRepository } from './leave.repository';

/**
 * The leave calendar dispatch asks "is this driver on leave that day" (`DriverLeaveCheck`, the hook
 * dispatch exports): registered at start, so that assignment refuses a driver on leave (422
 * `DRIVER_ON_LEAVE`) and the dispatch context shows `on_leave`. Reads in the caller's unit of work.
 * Served by idx_leaves_driver_start.
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

  onLeave(scope: Scope, driverId: string, date: string): Promise<boolean> {
    return this.leaves.onLeave(scope, driverId, date);
  }

  async onLeaveAmong(scope: Scope, driverIds: readonly string[], date: string): Promise<Set<string>> {
    if (!driverIds.length) return new Set();
    return this.leaves.onLeaveAmong(scope, driverIds, date);
  }
}
