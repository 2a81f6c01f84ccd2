import { Injectable, Logger } from '@nestjs/common';
import { Cron } from '@nestjs/schedule';
import { Scope, SystemReach } from '../../common/access/scope';
import { ApiError } from '../../common/http/api-error';
import { Page } from '../../common/http/envelope';
import { pageMeta } from '../../common/http/pagination';
import { UnitOfWork } from '../../database/unit-of-work';
import { CompanySettingsService } from '../companies';
import { CustomersService } from '../customers';
import { OrderOperations, orderNumber } from '../orders';
import { UsersService } from '../users';
import { DemeritCustomerDto, DemeritCustomersQuery, DemeritOrderDto, DemeritOrdersQuery, DemeritPointsDto, DemeritStandingDto, ViolationCountsDto } from './accountability.dto';
import { CustomerDemerit } from './accountability.entities';
import { DEMERIT_ORDER_SORTS, DemeritRepository, type ViolationCountsRow } from './demerit.repository';

const iso = (d: Date | string | null) => (d === null ? null : new Date(d).toISOString());
const DAY_MS = 86_400_000;

const counts = (r: ViolationCountsRow): ViolationCountsDto => ({ open: Number(r.open ?? 0), disputed: Number(r.disputed ?? 0), upheld: Number(r.upheld ?? 0), waived: Number(r.waived ?? 0) });

/**
 * Demerit points (domain.md §7): a customer's points are the sum over their violations not waived,
 * recorded within the company's window (`demerit_window_days`). The standing (`customer_demerits`)
 * is recomputed in the transaction of every change of the customer's violations, and copied to the
 * customer (`CustomersService.setDemerit`: placement reads the block flag there). Points also leave
 * the window with time: each standing keeps when its oldest counted violation leaves it
 * (`points_change_at`), and `refreshDue` (hourly, `@Cron`) recomputes those whose time has come; a
 * change of the thresholds or the window recomputes the company's standings (a subscriber).
 * Thresholds are reached at `points ≥ threshold` (and points > 0); reaching one records
 * `customer.demerit_threshold_reached` once per crossing (falling below and reaching it again records it again).
 */
@Injectable()
export class DemeritService {
  private readonly log = new Logger('Demerit');

  constructor(
    private readonly uow: UnitOfWork,
    private readonly standings: DemeritRepository,
    private readonly settings: CompanySettingsService,
    private readonly customers: CustomersService,
    private readonly orders: OrderOperations,
    private readonly users: UsersService,
  ) {}

  // ------------------------------------------------------------ keeping the standing

  /**
   * Recomputes the customer's standing as of `now` inside the caller's unit of work (the standing row
   * locked, created at the first violation), writes the copy on the customer, and records a threshold
   * event when one is newly reached (the actor: `scope.actorId`).
   */
  async refresh(scope: Scope, customerId: string, now: Date = new Date()): Promise<CustomerDemerit> {
    const s = await this.settings.get(scope);
    const row = await this.standings.lockOrCreate(scope, customerId);
    const agg = await this.standings.aggregate(scope, customerId, new Date(now.getTime() - s.demerit_window_days * DAY_MS));
    const points = Number(agg.points);
    const warning = points > 0 && points >= s.demerit_warning_threshold;
    const blocked = points > 0 && points >= s.demerit_block_threshold;
    const reached = (level: 'warning' | 'block', threshold: number) =>
      this.standings.recordEvents({ type: 'customer.demerit_threshold_reached', aggregateType: 'customer', aggregateId: customerId, companyId: scope.companyId, actorId: scope.actorId, payload: { points, threshold, level } });
    if (warning && !row.warningReached) await reached('warning', s.demerit_warning_threshold);
    if (blocked && !row.blocked) await reached('block', s.demerit_block_threshold);
    const changes: Partial<CustomerDemerit> = {
      points,
      warningReached: warning,
      blocked,
      violationsCount: Number(agg.n),
      lastViolationAt: agg.last ? new Date(agg.last) : null,
      pointsChangeAt: agg.oldest ? new Date(new Date(agg.oldest).getTime() + s.demerit_window_days * DAY_MS) : null,
    };
    await this.standings.update(scope, row.id, changes);
    await this.customers.setDemerit(scope, customerId, { points, blocked });
    return Object.assign(row, changes);
  }

  /**
   * Recomputes the standings whose oldest counted violation has left the window by `now`, one
   * unit of work each; returns how many. Each row is claimed with `FOR UPDATE SKIP LOCKED` and re-checked,
   * so instances running it at once share the work. The hourly job calls it; tests call it with a later `now`.
   */
  async refreshDue(now: Date = new Date()): Promise<number> {
    const due = await this.standings.due(SystemReach.of('the demerit window sweep'), now);
    let done = 0;
    for (const d of due) {
      await this.uow.transaction(async () => {
        const scope = Scope.company(d.company_id);
        if (!(await this.standings.claimDue(scope, d.customer_id, now))) return;
        await this.refresh(scope, d.customer_id, now);
        done++;
      });
    }
    return done;
  }

  /** Every standing of the company, recomputed (its thresholds or window changed), in one unit of work (the caller's when one is open). */
  async refreshCompany(scope: Scope): Promise<void> {
    await this.uow.transaction(async () => {
      for (const customerId of await this.standings.customerIds(scope)) await this.refresh(scope, customerId);
    });
  }

  /** Hourly (minute 35): points that left the window (README "Demerit points and disputes"; "Scheduled work" for the conventions). */
  @Cron('0 35 * * * *', { name: 'demerit-window', waitForCompletion: true })
  async sweep(): Promise<void> {
    const started = Date.now();
    try {
      const refreshed = await this.refreshDue(new Date());
      this.log.log({ msg: 'scheduled job done: demerit window', job: 'demerit window', duration_ms: Date.now() - started, refreshed });
    } catch (e) {
      this.log.error({ msg: 'scheduled job failed: demerit window', job: 'demerit window', duration_ms: Date.now() - started, error: e instanceof Error ? e.message : String(e) });
    }
  }

  // ------------------------------------------------------------ reads

  /** The company's customers with a standing (at least one violation ever), most points first; filters warning_reached, blocked, q (name or e-mail). */
  async listCustomers(scope: Scope, q: DemeritCustomersQuery): Promise<Page<DemeritCustomerDto>> {
    const page = await this.standings.page(scope, q);
    const names = page.items.length ? await this.users.names(scope, [...new Set(page.items.map((d) => d.customerId))]) : new Map<string, string>();
    return new Page(
      page.items.map((d) => ({
        customer_id: d.customerId,
        name: names.get(d.customerId) ?? '',
        points: d.points,
        warning_reached: d.warningReached,
        blocked: d.blocked,
        violations_count: d.violationsCount,
        last_violation_at: iso(d.lastViolationAt),
        points_change_at: iso(d.pointsChangeAt),
      })),
      page.meta,
    );
  }

  /** The customer's points (a customer of the scope's company) against the company's thresholds (zero before any violation). */
  async points(scope: Scope, customerId: string): Promise<DemeritPointsDto> {
    const s = await this.settings.get(scope);
    const d = await this.standings.find(scope, customerId);
    return {
      points: d?.points ?? 0,
      warning_threshold: s.demerit_warning_threshold,
      block_threshold: s.demerit_block_threshold,
      window_days: s.demerit_window_days,
      warning_reached: d?.warningReached ?? false,
      blocked: d?.blocked ?? false,
      points_change_at: iso(d?.pointsChangeAt ?? null),
    };
  }

  /** The standing of a customer `scope` reaches (the company: any of its customers; a customer: themself), with counts by state; else 404. */
  async standing(scope: Scope, customerId: string): Promise<DemeritStandingDto> {
    const customer = await this.customers.find(scope, customerId);
    const row = await this.standings.counts(scope, customer.id);
    return { customer: { id: customer.id, name: customer.user.name }, ...(await this.points(scope, customer.id)), last_violation_at: iso(row.last ?? null), violations: counts(row) };
  }

  /** The customer's orders with violations (a customer `scope` reaches, else 404), latest violation first (sorts last_violation_at, points). */
  async customerOrders(scope: Scope, customerId: string, q: DemeritOrdersQuery): Promise<Page<DemeritOrderDto>> {
    const customer = await this.customers.find(scope, customerId);
    const sort = q.sort ?? '-last_violation_at';
    const key = sort.replace(/^-/, '');
    if (!Object.prototype.hasOwnProperty.call(DEMERIT_ORDER_SORTS, key)) {
      throw ApiError.validation({ sort: [`must be one of ${Object.keys(DEMERIT_ORDER_SORTS).flatMap((k) => [k, '-' + k]).join(', ')}`] });
    }
    const { rows, total } = await this.standings.orders(scope, customer.id, {
      sort: key as keyof typeof DEMERIT_ORDER_SORTS,
      dir: sort.startsWith('-') ? 'DESC' : 'ASC',
      perPage: q.per_page ?? 20,
      page: q.page ?? 1,
    });
    const orders = await this.orders.many(scope, rows.map((r) => r.order_id));
    return new Page(
      rows.map((r) => ({
        order_id: r.order_id,
        order_number: orderNumber(Number(r.order_number)),
        order_status: orders.get(r.order_id)!.status,
        violations_count: Number(r.n),
        points: Number(r.points),
        charged_amount: Number(r.charged),
        credited_amount: Number(r.credited),
        violations: counts(r),
        last_violation_at: new Date(r.last).toISOString(),
      })),
      pageMeta(total, q),
    );
  }
}
