import { Injectable } from '@nestjs/common';
import { Scope } from '../../../common/access/scope';
import type { Page } from '../../../common/http/envelope';
import { paginate, type PageQuery } from '../../../common/http/pagination';
import { GenerateSql, SQL_SAMPLE } from '../../../database/generate-sql';
import { ModuleRepository } from '../../../database/repository';
import { PaymentBuyer, PaymentInstrument, type RefundTarget } from './ledger.entities';

const SAMPLE_SCOPE = Scope.company(SQL_SAMPLE.companyId, SQL_SAMPLE.actorId);

/** What the provider said of a card attached to a buyer (its company is the scope's). */
export type NewInstrument = Pick<PaymentInstrument, 'userId' | 'buyerId' | 'provider' | 'providerRef' | 'brand' | 'last4' | 'expMonth' | 'expYear'>;

/**
 * The users' identities with the payment provider (`payment_buyers`, one per user) and their cards
 * (`payment_instruments`: the provider's reference and what may be shown, never the number).
 */
@Injectable()
export class PaymentBuyerRepository extends ModuleRepository {
  /** The user's buyer identity in the scope's company, or null. */
  ofUser(scope: Scope, userId: string): Promise<PaymentBuyer | null> {
    return this.m.findOne(PaymentBuyer, { where: { userId, companyId: scope.companyId } });
  }

  /**
   * The user's buyer identity with the provider's customer `providerRef`, inserted unless the user has one
   * (`ON CONFLICT DO NOTHING`: of two concurrent first calls one row wins), then read: the row that won.
   */
  @GenerateSql({ params: [SAMPLE_SCOPE, SQL_SAMPLE.actorId, 'sandbox', 'cus_sample', 'wallet'] })
  async insertOnce(scope: Scope, userId: string, provider: string, providerRef: string, refundTo: RefundTarget): Promise<PaymentBuyer> {
    await this.sql(`INSERT INTO payment_buyers (company_id, user_id, provider, provider_ref, refund_to) VALUES ($1, $2, $3, $4, $5) ON CONFLICT (user_id) DO NOTHING`, [scope.companyId, userId, provider, providerRef, refundTo]);
    return this.m.findOneOrFail(PaymentBuyer, { where: { userId } });
  }

  /** Where the buyer's refunds go (a cancelled paid order's: the wallet or back to the card); a buyer of the scope's company. */
  @GenerateSql({ params: [SAMPLE_SCOPE, SQL_SAMPLE.id, 'instrument'] })
  async setRefundTo(scope: Scope, id: string, refundTo: RefundTarget): Promise<void> {
    await this.m.update(PaymentBuyer, { id, companyId: scope.companyId }, { refundTo });
  }

  /** A card attached with the provider, in the scope's company, as written. */
  @GenerateSql({ params: [SAMPLE_SCOPE, { userId: SQL_SAMPLE.actorId, buyerId: SQL_SAMPLE.id, provider: 'sandbox', providerRef: 'pm_sample', brand: 'visa', last4: '4242', expMonth: 12, expYear: 2030 }] })
  insertInstrument(scope: Scope, values: NewInstrument): Promise<PaymentInstrument> {
    return this.m.save(this.m.create(PaymentInstrument, { ...values, companyId: scope.companyId }));
  }

  /** The user's own instruments in the scope's company, newest first (paginated). */
  instruments(scope: Scope, userId: string, q: PageQuery): Promise<Page<PaymentInstrument>> {
    const qb = this.m.createQueryBuilder(PaymentInstrument, 'i').where('i.userId = :userId AND i.companyId = :companyId', { userId, companyId: scope.companyId });
    return paginate(qb, q, { sortable: { created_at: 'i.createdAt' } });
  }

  /** The user's instrument `id` in the scope's company with its buyer identity; null when the user has no such card. */
  async instrumentOf(scope: Scope, userId: string, id: string): Promise<{ instrument: PaymentInstrument; buyer: PaymentBuyer } | null> {
    const instrument = await this.m.findOne(PaymentInstrument, { where: { id, userId, companyId: scope.companyId } });
    if (!instrument) return null;
    const buyer = await this.m.findOneOrFail(PaymentBuyer, { where: { id: instrument.buyerId } });
    return { instrument, buyer };
  }
}
