import { Injectable } from '@nestjs/common';
import { Scope } from '../../common/access/scope';
import { findScoped, scopedQuery } from '../../common/access/tenant-policy';
import type { Page } from '../../common/http/envelope';
import { likePattern, paginate, type PageQuery } from '../../common/http/pagination';
import { GenerateSql, SQL_SAMPLE } from '../../database/generate-sql';
import { ModuleRepository } from '../../database/repository';
import { OrderChangeRequest } from './order.entity';
import { parseOrderNumber } from './orders.dto';

/** The filters of the change request lists. */
export interface ChangeRequestFilters extends PageQuery {
  customer_id?: string;
  status?: string;
  type?: string;
  order_id?: string;
}

const SAMPLE_SCOPE = () => Scope.company(SQL_SAMPLE.companyId);

/** The customers' change requests on their orders (`order_change_requests`), in the open unit of work. */
@Injectable()
export class ChangeRequestRepository extends ModuleRepository {
  /** The id of the order's pending request (of the scope's company), or null. */
  @GenerateSql({ params: () => [SAMPLE_SCOPE(), SQL_SAMPLE.id] })
  async pendingOf(scope: Scope, orderId: string): Promise<string | null> {
    const [pending] = await this.sql<{ id: string }>(`SELECT id FROM order_change_requests WHERE order_id = $1 AND company_id = $2 AND status = 'pending' LIMIT 1`, [orderId, scope.companyId]);
    return pending?.id ?? null;
  }

  /** A new request of the scope's company (its id and defaults filled in). */
  @GenerateSql.skip('saves a new entity: an INSERT of every column (no sample row)')
  async insert(scope: Scope, values: Omit<Partial<OrderChangeRequest>, 'companyId'>): Promise<OrderChangeRequest> {
    const request = this.m.create(OrderChangeRequest, { ...values, companyId: scope.companyId });
    await this.m.save(request);
    return request;
  }

  /** A request `scope` reaches (`lock`: FOR UPDATE); 404 otherwise. */
  @GenerateSql({ params: () => [SAMPLE_SCOPE(), SQL_SAMPLE.id] })
  find(scope: Scope, id: string, lock = false): Promise<OrderChangeRequest> {
    return findScoped(lock ? this.locked : this.m, OrderChangeRequest, scope, id, { what: 'Change request', ...(lock ? { lock: true } : {}) });
  }

  /** The company's request `id`, locked (after its order: always in that order), or null. */
  @GenerateSql({ params: () => [SAMPLE_SCOPE(), SQL_SAMPLE.id] })
  lockOfCompany(scope: Scope, id: string): Promise<OrderChangeRequest | null> {
    return this.locked.findOne(OrderChangeRequest, { where: { id, companyId: scope.companyId }, lock: { mode: 'pessimistic_write' } });
  }

  /** Sets columns of the scope's company's request `id`. */
  @GenerateSql({ params: () => [SAMPLE_SCOPE(), SQL_SAMPLE.id, { status: 'rejected' }] })
  async update(scope: Scope, id: string, values: Partial<OrderChangeRequest>): Promise<void> {
    await this.m.update(OrderChangeRequest, { id, companyId: scope.companyId }, values);
  }

  /** A page of the requests `scope` reaches, filtered; `q` matches the note, the rejection reason, the customer's name or e-mail, the order number. */
  @GenerateSql({ params: () => [SAMPLE_SCOPE(), { page: 1, per_page: 20, status: 'pending', q: '12' }] })
  page(scope: Scope, q: ChangeRequestFilters): Promise<Page<OrderChangeRequest>> {
    const qb = scopedQuery(this.m, OrderChangeRequest, scope, 'r');
    if (q.customer_id) qb.andWhere('r.customerId = :cid', { cid: q.customer_id });
    if (q.status) qb.andWhere('r.status = :status', { status: q.status });
    if (q.type) qb.andWhere('r.type = :type', { type: q.type });
    if (q.order_id) qb.andWhere('r.orderId = :orderId', { orderId: q.order_id });
    if (q.q) {
      const num = parseOrderNumber(q.q);
      qb.andWhere(
        `(r.note ILIKE :q OR r.rejection_reason ILIKE :q
          OR EXISTS (SELECT 1 FROM users_matching(:q) m WHERE m.id = r.customer_id)
          ${num !== null ? 'OR EXISTS (SELECT 1 FROM orders o WHERE o.id = r.order_id AND o.number = :num)' : ''})`,
        { q: likePattern(q.q), num },
      );
    }
    return paginate(qb, q, {
      sortable: { created_at: 'r.createdAt', updated_at: 'r.updatedAt', decided_at: 'r.decidedAt', status: 'r.status', type: 'r.type' },
    });
  }

  /** The number of requests `scope` reaches, by status. */
  @GenerateSql({ params: () => [SAMPLE_SCOPE()] })
  countsByStatus(scope: Scope): Promise<{ status: string; n: number }[]> {
    return scopedQuery(this.m, OrderChangeRequest, scope, 'r').select('r.status', 'status').addSelect('count(*)::int', 'n').groupBy('r.status').getRawMany();
  }

  /** The number of the order's requests (of the scope's company), by status. */
  @GenerateSql({ params: () => [SAMPLE_SCOPE(), SQL_SAMPLE.id] })
  countsOfOrder(scope: Scope, orderId: string): Promise<{ status: 'pending' | 'approved' | 'rejected'; n: number }[]> {
    return this.sql(`SELECT status, count(*)::int AS n FROM order_change_requests WHERE order_id = $1 AND company_id = $2 GROUP BY status`, [orderId, scope.companyId]);
  }
}
