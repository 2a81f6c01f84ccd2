import { Injectable, Logger } from '@nestjs/common';
import { Cron } from '@nestjs/schedule';
import { DataSource, EntityManager } from 'typeorm';
import { Scope } from '../../common/access/scope';
import { scopedQuery } from '../../common/access/tenant-policy';
import { ApiError } from '../../common/http/api-error';
import { Page } from '../../common/http/envelope';
import { countRows, likePattern, pageMeta, paginate } from '../../common/http/pagination';
import { recordEvents } from '../../common/outbox/outbox';
import { CompanySettingsService } from '../companies';
import { CustomersService } from '../customers';
import { OrderOperations, orderNumber } from '../orders';
import { userNameOrEmailMatches, userNameSql } from '../users';
import { DemeritCustomerDto, DemeritCustomersQuery, DemeritOrderDto, DemeritOrdersQuery, DemeritPointsDto, DemeritStandingDto, ViolationCountsDto } from './accountability.dto';
import { CustomerDemerit } from './accountability.entities';
import { runUnit } from '../../database/unit-of-work';

const iso = (d: Date | string | null) => (d === null ? null : new Date(d).toISOString());
const DAY_MS = 86_400_000;

/** Violations by state of one customer's violations (alias v), as SQL select expressions. */
const COUNTS_SQL = `count(*) FILTER (WHERE v.status = 'open')::int AS open, count(*) FILTER (WHERE v.status = 'disputed')::int AS disputed,
  count(*) FILTER (WHERE v.status = 'upheld')::int AS upheld, count(*) FILTER (WHERE v.status = 'waived')::int AS waived`;
const counts = (r: Record<string, unknown>): ViolationCountsDto => ({ open: Number(r.open ?? 0), disputed: Number(r.disputed ?? 0), upheld: Number(r.upheld ?? 0), waived: Number(r.waived ?? 0) });

/** Most standings the recompute job refreshes per run (the next run takes the rest). */
const SWEEP_BATCH = 500;

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
    private readonly ds: DataSource,
    private readonly settings: CompanySettingsService,
    private readonly customers: CustomersService,
    private readonly orders: OrderOperations,
  ) {}

  // ------------------------------------------------------------ keeping the standing

  /**
   * Recomputes the customer's standing as of `now` inside the caller's transaction (the standing row
   * locked, created at the first violation), writes the copy on the customer, and records a threshold
   * event when one is newly reached.
   */
  async refresh(m: EntityManager, companyId: string, customerId: string, actorId: string | null, now: Date = new Date()): Promise<CustomerDemerit> {
    const s = await this.settings.get(companyId, m);
    await m.query(`INSERT INTO customer_demerits (company_id, customer_id) VALUES ($1, $2) ON CONFLICT (customer_id) DO NOTHING`, [companyId, customerId]);
    const row = await m.findOneOrFail(CustomerDemerit, { where: { customerId, companyId }, lock: { mode: 'pessimistic_write' } });
    const since = new Date(now.getTime() - s.demerit_window_days * DAY_MS);
    const [agg] = await m.query<{ points: number; oldest: Date | null; n: number; last: Date | null }[]>(
      `SELECT coalesce(sum(points) FILTER (WHERE status <> 'waived' AND created_at > $2), 0)::int AS points,
              min(created_at) FILTER (WHERE status <> 'waived' AND points > 0 AND created_at > $2) AS oldest,
              count(*)::int AS n, max(created_at) AS last
         FROM customer_policy_violations WHERE customer_id = $1 AND deleted_at IS NULL`,
      [customerId, since],
    );
    const points = Number(agg.points);
    const warning = points > 0 && points >= s.demerit_warning_threshold;
    const blocked = points > 0 && points >= s.demerit_block_threshold;
    const reached = (level: 'warning' | 'block', threshold: number) =>
      recordEvents(m, { type: 'customer.demerit_threshold_reached', aggregateType: 'customer', aggregateId: customerId, companyId, actorId, payload: { points, threshold, level } });
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
    await m.update(CustomerDemerit, { id: row.id }, changes);
    await this.customers.setDemerit(Scope.company(companyId), customerId, { points, blocked });
    return Object.assign(row, changes);
  }

  /**
   * Recomputes the standings whose oldest counted violation has left the window by `now`, one
   * transaction each; returns how many. Each row is claimed with `FOR UPDATE SKIP LOCKED` and re-checked,
   * so instances running it at once share the work. The hourly job calls it; tests call it with a later `now`.
   */
  async refreshDue(now: Date = new Date()): Promise<number> {
    const due = await this.ds.query<{ company_id: string; customer_id: string }[]>(
      `SELECT company_id, customer_id FROM customer_demerits WHERE points_change_at <= $1 ORDER BY points_change_at LIMIT ${SWEEP_BATCH}`,
      [now],
    );
    let done = 0;
    for (const d of due) {
      await runUnit(this.ds, async (m) => {
        const claimed = await m.query<{ id: string }[]>(`SELECT id FROM customer_demerits WHERE customer_id = $1 AND points_change_at <= $2 FOR UPDATE SKIP LOCKED`, [d.customer_id, now]);
        if (!claimed.length) return;
        await this.refresh(m, d.company_id, d.customer_id, null, now);
        done++;
      });
    }
    return done;
  }

  /** Every standing of the company, recomputed (its thresholds or window changed), inside the caller's transaction. */
  async refreshCompany(m: EntityManager, companyId: string): Promise<void> {
    const rows = await m.find(CustomerDemerit, { select: { id: true, customerId: true }, where: { companyId }, order: { customerId: 'ASC' } });
    for (const r of rows) await this.refresh(m, companyId, r.customerId, null);
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
  listCustomers(scope: Scope, q: DemeritCustomersQuery): Promise<Page<DemeritCustomerDto>> {
    const qb = scopedQuery(this.ds.manager, CustomerDemerit, scope, 'd').addSelect(userNameSql('d.customer_id'), 'customer_name');
    if (q.warning_reached !== undefined) qb.andWhere('d.warningReached = :w', { w: q.warning_reached });
    if (q.blocked !== undefined) qb.andWhere('d.blocked = :b', { b: q.blocked });
    if (q.q) qb.andWhere(userNameOrEmailMatches('d.customer_id'), { q: likePattern(q.q) });
    return paginate(qb, q, {
      sortable: { points: 'd.points', last_violation_at: 'd.lastViolationAt', created_at: 'd.createdAt' },
      defaultSort: '-points',
      mapRaw: (d, raw) => ({
        customer_id: d.customerId,
        name: (raw.customer_name as string | null) ?? '',
        points: d.points,
        warning_reached: d.warningReached,
        blocked: d.blocked,
        violations_count: d.violationsCount,
        last_violation_at: iso(d.lastViolationAt),
        points_change_at: iso(d.pointsChangeAt),
      }),
      count: () => countRows(qb),
    });
  }

  /** The customer's points against the company's thresholds (zero before any violation). */
  async points(companyId: string, customerId: string, m: EntityManager = this.ds.manager): Promise<DemeritPointsDto> {
    const s = await this.settings.get(companyId, m);
    const d = await m.findOne(CustomerDemerit, { where: { companyId, customerId } });
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
    const m = this.ds.manager;
    const customer = await this.customers.find(scope, customerId);
    const [row] = await m.query<Record<string, unknown>[]>(
      `SELECT ${COUNTS_SQL}, max(v.created_at) AS last FROM customer_policy_violations v WHERE v.customer_id = $1 AND v.company_id = $2 AND v.deleted_at IS NULL`,
      [customer.id, scope.companyId],
    );
    return { customer: { id: customer.id, name: customer.user.name }, ...(await this.points(scope.companyId, customer.id, m)), last_violation_at: iso((row.last as Date | null) ?? null), violations: counts(row) };
  }

  /** The customer's orders with violations (a customer `scope` reaches, else 404), latest violation first (sorts last_violation_at, points). */
  async customerOrders(scope: Scope, customerId: string, q: DemeritOrdersQuery): Promise<Page<DemeritOrderDto>> {
    const m = this.ds.manager;
    const customer = await this.customers.find(scope, customerId);
    const sorts: Record<string, string> = { last_violation_at: 'last', points: 'points' };
    const sort = q.sort ?? '-last_violation_at';
    const key = sort.replace(/^-/, '');
    if (!sorts[key]) throw ApiError.validation({ sort: [`must be one of ${Object.keys(sorts).flatMap((k) => [k, '-' + k]).join(', ')}`] });
    const dir = sort.startsWith('-') ? 'DESC' : 'ASC';
    const perPage = q.per_page ?? 20;
    const page = q.page ?? 1;
    const where = `v.company_id = $1 AND v.customer_id = $2 AND v.deleted_at IS NULL`;
    const rows = await m.query<Record<string, unknown>[]>(
      `SELECT v.order_id, max(v.order_number) AS order_number, count(*)::int AS n,
              coalesce(sum(v.points) FILTER (WHERE v.status <> 'waived'), 0)::int AS points,
              coalesce(sum(v.charged_amount), 0)::int AS charged, coalesce(sum(v.credited_amount), 0)::int AS credited,
              ${COUNTS_SQL}, max(v.created_at) AS last
         FROM customer_policy_violations v WHERE ${where}
        GROUP BY v.order_id ORDER BY ${sorts[key]} ${dir}, v.order_id ${dir} LIMIT $3 OFFSET $4`,
      [scope.companyId, customer.id, perPage, (page - 1) * perPage],
    );
    const [{ total }] = await m.query<{ total: number }[]>(`SELECT count(DISTINCT v.order_id)::int AS total FROM customer_policy_violations v WHERE ${where}`, [scope.companyId, customer.id]);
    const orders = await this.orders.many(scope.companyId, rows.map((r) => r.order_id as string), m);
    return new Page(
      rows.map((r) => ({
        order_id: r.order_id as string,
        order_number: orderNumber(Number(r.order_number)),
        order_status: orders.get(r.order_id as string)!.status,
        violations_count: Number(r.n),
        points: Number(r.points),
        charged_amount: Number(r.charged),
        credited_amount: Number(r.credited),
        violations: counts(r),
        last_violation_at: new Date(r.last as Date).toISOString(),
      })),
      pageMeta(Number(total), q),
    );
  }
}
