import { Injectable } from '@nestjs/common';
import { IsNull } from 'typeorm';
import { Scope, SystemReach } from '../../../common/access/scope';
import { GenerateSql, SQL_SAMPLE } from '../../../database/generate-sql';
import { ModuleRepository } from '../../../database/repository';
import { MerchantAccount, MerchantTermsAcceptance } from './merchant-account.entity';

const SAMPLE_SCOPE = Scope.company(SQL_SAMPLE.companyId, SQL_SAMPLE.actorId);
const SAMPLE_REACH = SystemReach.of('statement snapshot');

/**
 * The merchant accounts (`merchant_accounts`, one row per company, created `not_started` by the first
 * write and locked by every state change) and the terms acceptances (`merchant_terms_acceptances`, one
 * live per company). Reads and writes run in the open unit of work, else on the pool; the locks need one.
 */
@Injectable()
export class MerchantAccountRepository extends ModuleRepository {
  /** The company's account; null before its first write. */
  @GenerateSql({ params: [SAMPLE_SCOPE] })
  find(scope: Scope): Promise<MerchantAccount | null> {
    return this.m.getRepository(MerchantAccount).findOne({ where: { companyId: scope.companyId } });
  }

  /** What the fee details show of the account (state, payout schedule); null before its first write. */
  @GenerateSql({ params: [SAMPLE_SCOPE] })
  feeView(scope: Scope): Promise<Pick<MerchantAccount, 'id' | 'state' | 'payoutSchedule'> | null> {
    return this.m.getRepository(MerchantAccount).findOne({ where: { companyId: scope.companyId }, select: { id: true, state: true, payoutSchedule: true } });
  }

  /** What card readiness needs of the account (state, provider, reference); null before its first write. */
  @GenerateSql({ params: [SAMPLE_SCOPE] })
  cardView(scope: Scope): Promise<Pick<MerchantAccount, 'id' | 'state' | 'provider' | 'providerReference'> | null> {
    return this.m.getRepository(MerchantAccount).findOne({ where: { companyId: scope.companyId }, select: { id: true, state: true, provider: true, providerReference: true } });
  }

  /** The company's account row, created not_started when absent, locked (FOR UPDATE) for the rest of the unit. */
  @GenerateSql({ params: [SAMPLE_SCOPE] })
  async lock(scope: Scope): Promise<MerchantAccount> {
    const m = this.locked;
    await m.query(`INSERT INTO merchant_accounts (company_id) VALUES ($1) ON CONFLICT (company_id) DO NOTHING`, [scope.companyId]);
    return m.getRepository(MerchantAccount).findOneOrFail({ where: { companyId: scope.companyId }, lock: { mode: 'pessimistic_write' } });
  }

  /** The account with this provider reference, any company's (the provider's word), locked (FOR UPDATE) for the rest of the unit; null when none has it. */
  @GenerateSql({ params: [SAMPLE_REACH, 'acct_sbx_0123'] })
  lockByReference(reach: SystemReach, providerReference: string): Promise<MerchantAccount | null> {
    return this.locked.getRepository(MerchantAccount).findOne({ where: { providerReference }, lock: { mode: 'pessimistic_write' } });
  }

  /** Writes the (locked) account's changed columns. */
  @GenerateSql({ params: () => [Object.assign(new MerchantAccount(), { id: SQL_SAMPLE.id, companyId: SQL_SAMPLE.companyId, state: 'pending' })] })
  async save(a: MerchantAccount): Promise<void> {
    await this.m.save(a);
  }

  /** The scope's company's account, changed. */
  @GenerateSql({ params: [SAMPLE_SCOPE, SQL_SAMPLE.id, { cancelReason: 'later' }] })
  async update(scope: Scope, id: string, values: Partial<Pick<MerchantAccount, 'cancelReason' | 'payoutSchedule'>>): Promise<void> {
    await this.m.update(MerchantAccount, { id, companyId: scope.companyId }, values);
  }

  // ------------------------------------------------------------ terms acceptances

  /** The company's live (not withdrawn) terms acceptance, or null. */
  @GenerateSql({ params: [SAMPLE_SCOPE] })
  liveAcceptance(scope: Scope): Promise<MerchantTermsAcceptance | null> {
    return this.m.getRepository(MerchantTermsAcceptance).findOne({ where: { companyId: scope.companyId, withdrawnAt: IsNull() } });
  }

  /** A new acceptance of the scope's company, saved (its generated columns read back). */
  @GenerateSql({ params: () => [SAMPLE_SCOPE, { version: '2025-06-01', acceptedBy: SQL_SAMPLE.actorId, acceptedAt: SQL_SAMPLE.at, ip: '127.0.0.1', userAgent: null, withdrawnAt: null, withdrawnBy: null }] })
  async insertAcceptance(scope: Scope, values: Omit<Partial<MerchantTermsAcceptance>, 'companyId'>): Promise<MerchantTermsAcceptance> {
    const row = this.m.create(MerchantTermsAcceptance, { ...values, companyId: scope.companyId });
    await this.m.save(row);
    return row;
  }

  /** Withdraws an acceptance of the scope's company (kept, with who and when). */
  async withdrawAcceptance(scope: Scope, id: string, withdrawnAt: Date, withdrawnBy: string): Promise<void> {
    await this.m.update(MerchantTermsAcceptance, { id, companyId: scope.companyId }, { withdrawnAt, withdrawnBy });
  }
}
