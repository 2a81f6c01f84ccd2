import { Injectable } from '@nestjs/common';
import type { Actor } from '../../common/access/actor';
import { Scope } from '../../common/access/scope';
import { ApiError } from '../../common/http/api-error';
import { TrucksService } from '../fleet';
import { JobsService } from '../jobs';
import { OrderOperations } from '../orders';
import { UsersService } from '../users';
import { OrderJobDto } from './order-jobs.dto';

const iso = (d: Date | null) => (d ? d.toISOString() : null);
const firstName = (name: string) => name.trim().split(/\s+/)[0] ?? '';

/**
 * `GET /orders/{order}/jobs`: the jobs of an order for whoever has a part in it: its company (all),
 * its customer (type, status, dates, the driver's first name, the truck, and the latest location only
 * of a job in progress), a driver with a job on it (the jobs as the company sees them). Anyone else
 * gets 404, as for an order that does not exist.
 */
@Injectable()
export class OrderJobsService {
  constructor(
    private readonly jobs: JobsService,
    private readonly orderOps: OrderOperations,
    private readonly users: UsersService,
    private readonly trucks: TrucksService,
  ) {}

  async list(actor: Actor, orderId: string): Promise<OrderJobDto[]> {
    const scope = Scope.of(actor);
    const order = (await this.orderOps.many(Scope.company(scope.companyId), [orderId])).get(orderId);
    const reaches = !!order && (scope.kind === 'company' || (scope.kind === 'customer' && order.customerId === scope.actorId) || (scope.kind === 'driver' && (await this.jobs.reachesOrder(scope, orderId))));
    if (!reaches) throw ApiError.notFound('Order');
    const jobs = await this.jobs.listForOrder(Scope.company(scope.companyId), orderId);
    const names = await this.users.names(scope, [...new Set(jobs.map((j) => j.driverId).filter((d): d is string => !!d))]);
    const trucks = await this.trucks.summaries(Scope.company(scope.companyId), jobs.map((j) => j.truckId).filter((t): t is string => !!t));
    const full = scope.kind !== 'customer';
    return jobs.map((j) => {
      const name = j.driverId ? (names.get(j.driverId) ?? '') : null;
      const truck = j.truckId ? trucks.get(j.truckId) : undefined;
      const showLocation = full || j.status === 'in_progress';
      const base: OrderJobDto = {
        id: j.id,
        type: j.type,
        status: j.status,
        scheduled_date: j.scheduledDate,
        started_at: iso(j.startedAt),
        completed_at: iso(j.completedAt),
        aborted_at: iso(j.abortedAt),
        driver: name === null ? null : full ? { id: j.driverId!, name, first_name: firstName(name) } : { first_name: firstName(name) },
        truck: truck ? { ...(full ? { id: j.truckId! } : {}), plate: truck.plate, name: truck.name } : null,
        location: showLocation && j.lastLat !== null && j.lastLng !== null && j.lastLocationAt ? { lat: j.lastLat, lng: j.lastLng, at: j.lastLocationAt.toISOString() } : null,
      };
      if (!full) return base;
      return {
        ...base,
        dispatch: {
          order_id: j.orderId,
          sequence: j.sequence,
          asset_id: j.assetId,
          removed_asset_id: j.removedAssetId,
          lot_id: j.lotId,
          destination_address_id: j.destinationAddressId,
          merged_into_job_id: j.mergedIntoJobId,
          assigned_at: iso(j.assignedAt),
          abort_reason: j.abortReason,
          notes: j.notes,
        },
      };
    });
  }
}
