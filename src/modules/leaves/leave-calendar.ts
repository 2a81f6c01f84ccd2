import { Injectable, OnModuleInit } from '@nestjs/common';
import type { EntityManager } from 'typeorm';
import { DriverLeaveCheck, type DriverLeaveSource } from '../dispatch';
import { Leave } from './leave.entities';

/** A leave in force that day: approved, or the days a revoked leave kept (its end moved to the revocation day). */
const ON_DATE = `l.status IN ('approved', 'revoked') AND l.startDate <= :date AND l.endDate >= :date`;

/**
 * The leave calendar dispatch asks "is this driver on leave that day" (`DriverLeaveCheck`, the hook
 * dispatch exports): registered at start, so that assignment refuses a driver on leave (422
 * `DRIVER_ON_LEAVE`) and the dispatch context shows `on_leave`. Reads through the caller's manager (its
 * transaction). Served by idx_leaves_driver_start.
 */
@Injectable()
export class LeaveCalendar implements DriverLeaveSource, OnModuleInit {
  constructor(private readonly check: DriverLeaveCheck) {}

  onModuleInit(): void {
    this.check.register(this);
  }

  onLeave(m: EntityManager, companyId: string, driverId: string, date: string): Promise<boolean> {
    return m
      .createQueryBuilder(Leave, 'l')
      .where('l.driverId = :driverId AND l.companyId = :companyId', { driverId, companyId })
      .andWhere(ON_DATE, { date })
      .getExists();
  }

  async onLeaveAmong(m: EntityManager, companyId: string, driverIds: readonly string[], date: string): Promise<Set<string>> {
    if (!driverIds.length) return new Set();
    const rows: { driver_id: string }[] = await m
      .createQueryBuilder(Leave, 'l')
      .select('DISTINCT l.driver_id', 'driver_id')
      .where('l.driverId IN (:...driverIds) AND l.companyId = :companyId', { driverIds: [...driverIds], companyId })
      .andWhere(ON_DATE, { date })
      .getRawMany();
    return new Set(rows.map((r) => r.driver_id));
  }
}
