import { Injectable } from '@nestjs/common';
import { Scope } from '../../../common/access/scope';
import { GenerateSql, SQL_SAMPLE } from '../../../database/generate-sql';
import { ModuleRepository } from '../../../database/repository';
import { Wallet } from './ledger.entities';

const SAMPLE_SCOPE = Scope.company(SQL_SAMPLE.companyId, SQL_SAMPLE.actorId);

/**
 * The customers' wallets (`wallets`): one per customer and company, its balance kept in the same unit
 * of work as the ledger rows that move it, never negative (the database refuses it). A debit locks the
 * wallet first (`lock`, inside a unit).
 */
@Injectable()
export class WalletRepository extends ModuleRepository {
  /** The customer's wallet in the scope's company, locked (`FOR UPDATE`); null when it has none. */
  lock(scope: Scope, customerId: string): Promise<Wallet | null> {
    return this.locked
      .createQueryBuilder(Wallet, 'w')
      .where('w.companyId = :companyId AND w.customerId = :customerId', { companyId: scope.companyId, customerId })
      .setLock('pessimistic_write')
      .getOne();
  }

  /** Takes `amount` from the (locked) wallet of the scope's company. */
  @GenerateSql({ params: [SAMPLE_SCOPE, SQL_SAMPLE.id, 100] })
  async debit(scope: Scope, id: string, amount: number): Promise<void> {
    await this.sql(`UPDATE wallets SET balance = balance - $2, updated_at = now() WHERE id = $1 AND company_id = $3`, [id, amount, scope.companyId]);
  }

  /** Adds `amount` to the customer's wallet in the scope's company (created at the first credit); returns its id. */
  @GenerateSql({ params: [SAMPLE_SCOPE, SQL_SAMPLE.actorId, 'USD', 100] })
  async credit(scope: Scope, customerId: string, currency: string, amount: number): Promise<string> {
    const rows = await this.sql<{ id: string }>(
      `INSERT INTO wallets (company_id, customer_id, currency, balance) VALUES ($1, $2, $3, $4)
       ON CONFLICT (company_id, customer_id) DO UPDATE SET balance = wallets.balance + EXCLUDED.balance, updated_at = now() RETURNING id`,
      [scope.companyId, customerId, currency, amount],
    );
    return rows[0].id;
  }

  /** The customer's wallet in the scope's company, or null. */
  ofCustomer(scope: Scope, customerId: string): Promise<Wallet | null> {
    return this.m.findOne(Wallet, { where: { companyId: scope.companyId, customerId } });
  }

  /** The scope's company's wallets: how many, their balances summed (one currency per company). */
  async companyTotals(scope: Scope): Promise<{ n: number; total: string; currency: string | null }> {
    const [row] = await this.sql<{ n: number; total: string; currency: string | null }>(
      `SELECT count(*)::int AS n, coalesce(sum(balance), 0)::bigint::text AS total, min(currency) AS currency FROM wallets WHERE company_id = $1`,
      [scope.companyId],
    );
    return row;
  }
}
