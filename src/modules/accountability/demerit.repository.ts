import { Injectable } from '@nestjs/common';
import { Scope, SystemReach } from '../../common/access/scope';
import { scopedQuery } from '../../common/access/tenant-policy';
import { Page } from '../../common/http/envelope';
import { countRows, likePattern, paginate } from '../../common/http/pagination';
import { GenerateSql, SQL_SAMPLE } from '../../database/generate-sql';
import { ModuleRepository } from '../../database/repository';
import type { DemeritCustomersQuery } from './accountability.dto';
import { CustomerDemerit } from './accountability.entities';

/** Most standings the recompute job refreshes per run (the next run takes the rest). */
const SWEEP_BATCH = 500;

/** Violations by state of one customer's violations (alias v), as SQL select expressions. */
const COUNTS_SQL = `count(*) FILTER (WHERE v.status = 'open')::int AS open, count(*) FILTER (WHERE v.status = 'disputed')::int AS disputed,
  count(*) FILTER (WHERE v.status = 'upheld')::int AS upheld, count(*) FILTER (WHERE v.status = 'waived')::int AS waived`;

/** A customer's violations by state (raw counts, as selected by `COUNTS_SQL`). */
export interface ViolationCountsRow {
  open: unknown;
  disputed: unknown;
  upheld: unknown;
  waived: unknown;
}

/** What the window counts of one customer's violations. */
export interface DemeritAggregate {
  points: number;
  oldest: Date | null;
  n: number;
  last: Date | null;
}

/** One order of a customer's, with its violations summed (a page of `DemeritService.customerOrders`). */
export interface DemeritOrderRow extends ViolationCountsRow {
  order_id: string;
  order_number: unknown;
  n: unknown;
  points: unknown;
  charged: unknown;
  credited: unknown;
  last: Date;
}

/** The sorts of a customer's orders with violations. */
export const DEMERIT_ORDER_SORTS = { last_violation_at: 'last', points: 'points' } as const;

/**
 * The demerit standings (`customer_demerits`) and the sums over a customer's violations that make them
 * (`customer_policy_violations`): the module's SQL for points (docs/data-layer.md).
 */
@Injectable()
export class DemeritRepository extends ModuleRepository {

  /** The customer's standing row, locked (FOR UPDATE) for the caller's unit; made at the first violation. */
  async lockOrCreate(scope: Scope, customerId: string): Promise<CustomerDemerit> {
    await this.locked.query(`INSERT INTO customer_demerits (company_id, customer_id) VALUES ($1, $2) ON CONFLICT (customer_id) DO NOTHING`, [scope.companyId, customerId]);
    return this.locked.findOneOrFail(CustomerDemerit, { where: { customerId, companyId: scope.companyId }, lock: { mode: 'pessimistic_write' } });
  }

  /** Points of the customer's violations recorded after `windowStartAt` (waived ones left out), when the oldest counted leaves it, and all live violations. */
  async aggregate(scope: Scope, customerId: string, windowStartAt: Date): Promise<DemeritAggregate> {
    const [agg] = await this.sql<{ points: number; oldest: Date | null; n: number; last: Date | null }>(
      `SELECT coalesce(sum(points) FILTER (WHERE status <> 'waived' AND created_at > $2), 0)::int AS points,
              min(created_at) FILTER (WHERE status <> 'waived' AND points > 0 AND created_at > $2) AS oldest,
              count(*)::int AS n, max(created_at) AS last
         FROM customer_policy_violations WHERE customer_id = $1 AND company_id = $3 AND deleted_at IS NULL`,
      [customerId, windowStartAt, scope.companyId],
    );
    return agg;
  }

  /** The standing `id` of the scope's company (locked by `lockOrCreate` in the caller's unit). */
  @GenerateSql({ params: () => [Scope.company(SQL_SAMPLE.companyId, SQL_SAMPLE.actorId), SQL_SAMPLE.id, { points: 3, warningReached: false, blocked: false, violationsCount: 1, lastViolationAt: SQL_SAMPLE.at, pointsChangeAt: null }] })
  async update(scope: Scope, id: string, changes: Partial<CustomerDemerit>): Promise<void> {
    await this.locked.update(CustomerDemerit, { id, companyId: scope.companyId }, changes);
  }

  /** The standings whose oldest counted violation has left the window by `now` (a batch of the sweep; every company: the scheduler's). */
  @GenerateSql({ params: () => [SystemReach.of('the demerit window sweep'), SQL_SAMPLE.at] })
  due(reach: SystemReach, now: Date): Promise<{ company_id: string; customer_id: string }[]> {
    return this.sql(`SELECT company_id, customer_id FROM customer_demerits WHERE points_change_at <= $1 ORDER BY points_change_at LIMIT ${SWEEP_BATCH}`, [now]);
  }

  /** Claims a due standing of the scope's company for this unit (`FOR UPDATE SKIP LOCKED`, re-checked): false when another instance has it or it is no longer due. */
  async claimDue(scope: Scope, customerId: string, now: Date): Promise<boolean> {
    const claimed = await this.locked.query<{ id: string }[]>(`SELECT id FROM customer_demerits WHERE customer_id = $1 AND company_id = $3 AND points_change_at <= $2 FOR UPDATE SKIP LOCKED`, [customerId, now, scope.companyId]);
    return claimed.length > 0;
  }

  /** The customers of the company with a standing, by id. */
  async customerIds(scope: Scope): Promise<string[]> {
    const rows = await this.m.find(CustomerDemerit, { select: { id: true, customerId: true }, where: { companyId: scope.companyId }, order: { customerId: 'ASC' } });
    return rows.map((r) => r.customerId);
  }

  /** The customer's standing (null before any violation). */
  find(scope: Scope, customerId: string): Promise<CustomerDemerit | null> {
    return this.m.findOne(CustomerDemerit, { where: { companyId: scope.companyId, customerId } });
  }

  /** A page of the company's standings (filters warning_reached, blocked, q: the customer's name or e-mail). */
  @GenerateSql({ params: () => [Scope.company(SQL_SAMPLE.companyId, SQL_SAMPLE.actorId), { page: 2, per_page: 20 }] }, { name: 'filtered', params: () => [Scope.company(SQL_SAMPLE.companyId, SQL_SAMPLE.actorId), { blocked: true, warning_reached: true, q: 'smith', sort: 'last_violation_at' }] })
  page(scope: Scope, q: DemeritCustomersQuery): Promise<Page<CustomerDemerit>> {
    const qb = scopedQuery(this.m, CustomerDemerit, scope, 'd');
    if (q.warning_reached !== undefined) qb.andWhere('d.warningReached = :w', { w: q.warning_reached });
    if (q.blocked !== undefined) qb.andWhere('d.blocked = :b', { b: q.blocked });
    if (q.q) qb.andWhere('EXISTS (SELECT 1 FROM users_matching(:q) m WHERE m.id = d.customer_id)', { q: likePattern(q.q) });
    return paginate(qb, q, {
      sortable: { points: 'd.points', last_violation_at: 'd.lastViolationAt', created_at: 'd.createdAt' },
      defaultSort: '-points',
      mapRaw: (d) => d,
      count: () => countRows(qb),
    });
  }

  /** The customer's live violations in the scope's company by state, and the latest one's time. */
  async counts(scope: Scope, customerId: string): Promise<ViolationCountsRow & { last: Date | null }> {
    const [row] = await this.sql<ViolationCountsRow & { last: Date | null }>(
      `SELECT ${COUNTS_SQL}, max(v.created_at) AS last FROM customer_policy_violations v WHERE v.customer_id = $1 AND v.company_id = $2 AND v.deleted_at IS NULL`,
      [customerId, scope.companyId],
    );
    return row;
  }

  /** A page of the customer's orders with live violations, summed per order, and how many such orders there are. */
  @GenerateSql({ params: () => [Scope.company(SQL_SAMPLE.companyId, SQL_SAMPLE.actorId), SQL_SAMPLE.id, { sort: 'points', dir: 'DESC', perPage: 20, page: 1 }] })
  async orders(scope: Scope, customerId: string, o: { sort: keyof typeof DEMERIT_ORDER_SORTS; dir: 'ASC' | 'DESC'; perPage: number; page: number }): Promise<{ rows: DemeritOrderRow[]; total: number }> {
    const where = `v.company_id = $1 AND v.customer_id = $2 AND v.deleted_at IS NULL`;
    const rows = await this.sql<DemeritOrderRow>(
      `SELECT v.order_id, max(v.order_number) AS order_number, count(*)::int AS n,
              coalesce(sum(v.points) FILTER (WHERE v.status <> 'waived'), 0)::int AS points,
              coalesce(sum(v.charged_amount), 0)::int AS charged, coalesce(sum(v.credited_amount), 0)::int AS credited,
              ${COUNTS_SQL}, max(v.created_at) AS last
         FROM customer_policy_violations v WHERE ${where}
        GROUP BY v.order_id ORDER BY ${DEMERIT_ORDER_SORTS[o.sort]} ${o.dir === 'DESC' ? 'DESC' : 'ASC'}, v.order_id ${o.dir === 'DESC' ? 'DESC' : 'ASC'} LIMIT $3 OFFSET $4`,
      [scope.companyId, customerId, o.perPage, (o.page - 1) * o.perPage],
    );
    const [{ total }] = await this.sql<{ total: number }>(`SELECT count(DISTINCT v.order_id)::int AS total FROM customer_policy_violations v WHERE ${where}`, [scope.companyId, customerId]);
    return { rows, total: Number(total) };
  }
}
