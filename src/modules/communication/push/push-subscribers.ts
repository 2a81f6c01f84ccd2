import { Injectable, OnModuleInit } from '@nestjs/common';
import { Scope } from '../../../common/access/scope';
import { BoundedMap } from '../../../common/bounded-map';
import { DriverLocationPoint, DriverLocations, DriverLocationSink } from '../../../common/live/driver-locations';
import { EventHandler, EventSubscriber, RelayedEvent } from '../../../common/outbox/event-subscriber';
import { UnitOfWork } from '../../../database/unit-of-work';
import { JobsService } from '../../jobs';
import { OrderOperations } from '../../orders';
import { afterCommit } from './after-commit';
import { LivePush } from './live-push';

/** What a pushed event carries: its id (clients de-duplicate by it), name, aggregate, time and payload. */
const pushed = (e: RelayedEvent) => ({ event_id: e.id, type: e.type, id: e.aggregateId, at: e.createdAt.toISOString(), data: e.payload });

const JOB_EVENTS = [
  'job.created',
  'job.updated',
  'job.reassigned',
  'job.deleted',
  'job.assigned',
  'job.in_progress',
  'job.completed',
  'job.aborted',
  'job.evidence_added',
  'job.issue_reported',
  'job.issue_resolved',
] as const;
type JobEvent = (typeof JOB_EVENTS)[number];

/** Job changes (`job`): to the company's dispatch room and the driver(s) concerned (for a reassignment both). */
@Injectable()
@EventSubscriber({ name: 'live-push-jobs', events: JOB_EVENTS })
export class PushJobChanges implements EventHandler<JobEvent> {
  constructor(
    private readonly uow: UnitOfWork,
    private readonly push: LivePush,
    private readonly jobs: JobsService,
  ) {}

  async handle(event: RelayedEvent<JobEvent>): Promise<void> {
    if (!event.companyId) return;
    const p = event.payload as { driver_id?: string | null; from_driver_id?: string | null; to_driver_id?: string | null };
    const drivers = [p.driver_id, p.from_driver_id, p.to_driver_id];
    if (!('driver_id' in p) && !('to_driver_id' in p) && event.type !== 'job.deleted') {
      drivers.push(
        await this.jobs
          .find(Scope.company(event.companyId), event.aggregateId)
          .then((j) => j.driverId)
          .catch(() => null),
      );
    }
    const company = Scope.company(event.companyId);
    const data = pushed(event);
    afterCommit(this.uow, () => {
      this.push.toDispatch(company, 'job', data);
      this.push.toUsers(drivers.filter((d): d is string => !!d), 'job', data);
    });
  }
}

const USER_EVENTS = ['chat.message_posted', 'chat.message_edited', 'chat.message_deleted', 'notification.read', 'notification.deleted'] as const;
type UserEvent = (typeof USER_EVENTS)[number];

/**
 * To users' own rooms: chat messages (`chat`) to the chat's members (the recipients, and the author's
 * other devices); a notification read or deleted on one device (`notification.read`, `notification.deleted`)
 * to the user's other devices.
 */
@Injectable()
@EventSubscriber({ name: 'live-push-users', events: USER_EVENTS })
export class PushToUsers implements EventHandler<UserEvent> {
  constructor(
    private readonly uow: UnitOfWork,
    private readonly push: LivePush,
  ) {}

  handle(event: RelayedEvent<UserEvent>): void {
    const [name, users] =
      event.type === 'notification.read' || event.type === 'notification.deleted'
        ? [event.type, [event.aggregateId]]
        : ['chat', [...event.payload.recipient_user_ids, event.payload.author_user_id]];
    afterCommit(this.uow, () => this.push.toUsers(users, name, pushed(event)));
  }
}

/** A revoked token: its sockets, on every instance, are disconnected. */
@Injectable()
@EventSubscriber({ name: 'live-push-token-revoked', events: ['auth.token_revoked'] })
export class DisconnectRevokedTokens implements EventHandler<'auth.token_revoked'> {
  constructor(
    private readonly uow: UnitOfWork,
    private readonly push: LivePush,
  ) {}

  handle(event: RelayedEvent<'auth.token_revoked'>): void {
    afterCommit(this.uow, () => this.push.disconnectToken(event.payload.jti));
  }
}

/**
 * The same access rules as the API for open sockets: a deactivated company's people and a deactivated
 * customer or driver are disconnected at once (their next handshake is refused, as their requests are 403).
 */
@Injectable()
@EventSubscriber({ name: 'live-push-deactivated', events: ['company.deactivated', 'customer.deactivated', 'driver.deactivated'] })
export class DisconnectDeactivated implements EventHandler<'company.deactivated' | 'customer.deactivated' | 'driver.deactivated'> {
  constructor(
    private readonly uow: UnitOfWork,
    private readonly push: LivePush,
  ) {}

  handle(event: RelayedEvent<'company.deactivated' | 'customer.deactivated' | 'driver.deactivated'>): void {
    if (event.type === 'company.deactivated') afterCommit(this.uow, () => this.push.disconnectCompany(Scope.company(event.aggregateId)));
    else afterCommit(this.uow, () => this.push.disconnectUser(event.aggregateId));
  }
}

/** Orders whose customer is known (an order's customer never changes), so that a location point costs no query. */
const CUSTOMER_CACHE_SIZE = 10_000;

/**
 * Driver locations (`driver.location`), handed over by dispatch through `DriverLocations` after each
 * point commits: to the company's dispatch room and, the job being in progress (dispatch takes points
 * for jobs in progress only), to the order's customer.
 */
@Injectable()
export class PushDriverLocations implements DriverLocationSink, OnModuleInit {
  private readonly customers = new BoundedMap<string, string>(CUSTOMER_CACHE_SIZE);

  constructor(
    private readonly locations: DriverLocations,
    private readonly push: LivePush,
    private readonly orders: OrderOperations,
  ) {}

  onModuleInit(): void {
    this.locations.register(this);
  }

  async driverLocation(p: DriverLocationPoint): Promise<void> {
    const data = { driver_id: p.driverId, job_id: p.jobId, order_id: p.orderId, lat: p.lat, lng: p.lng, recorded_at: p.recordedAt.toISOString() };
    const company = Scope.company(p.companyId);
    this.push.toDispatch(company, 'driver.location', data);
    const customerId = await this.customerOf(company, p.orderId);
    if (customerId) this.push.toUsers([customerId], 'driver.location', data);
  }

  private async customerOf(company: Scope, orderId: string): Promise<string | null> {
    const known = this.customers.get(orderId);
    if (known) return known;
    const order = (await this.orders.many(company, [orderId])).get(orderId);
    if (!order) return null;
    this.customers.set(orderId, order.customerId);
    return order.customerId;
  }
}
