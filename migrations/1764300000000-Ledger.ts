import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Payments, the ledger (#13): buyer identities and payment instruments with the provider (references,
 * brand, last 4, expiry; never a card number), the ledger `payment_transactions` (every money movement
 * is a row), wallets per (company, customer) whose balance the database keeps non-negative, and the
 * dues indexes on orders (orders with a balance, by due date).
 */
export class Ledger1764300000000 implements MigrationInterface {
  name = 'Ledger1764300000000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`
      CREATE TABLE payment_buyers (
        id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
        company_id uuid NOT NULL CONSTRAINT payment_buyers_company_id_fkey REFERENCES companies (id),
        user_id uuid NOT NULL CONSTRAINT payment_buyers_user_id_fkey REFERENCES users (id) ON DELETE CASCADE,
        provider text NOT NULL,
        provider_ref text NOT NULL,
        refund_to text NOT NULL DEFAULT 'wallet' CONSTRAINT payment_buyers_refund_to_check CHECK (refund_to IN ('wallet', 'instrument')),
        created_at timestamptz NOT NULL DEFAULT now(),
        updated_at timestamptz NOT NULL DEFAULT now()
      )`);
    await q.query(`CREATE UNIQUE INDEX uq_payment_buyers_user ON payment_buyers (user_id)`);
    await q.query(`CREATE INDEX idx_payment_buyers_company ON payment_buyers (company_id)`);

    await q.query(`
      CREATE TABLE payment_instruments (
        id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
        company_id uuid NOT NULL CONSTRAINT payment_instruments_company_id_fkey REFERENCES companies (id),
        user_id uuid NOT NULL CONSTRAINT payment_instruments_user_id_fkey REFERENCES users (id) ON DELETE CASCADE,
        buyer_id uuid NOT NULL CONSTRAINT payment_instruments_buyer_id_fkey REFERENCES payment_buyers (id) ON DELETE CASCADE,
        provider text NOT NULL,
        provider_ref text NOT NULL,
        brand text NOT NULL,
        last4 char(4) NOT NULL,
        exp_month smallint NOT NULL CONSTRAINT payment_instruments_exp_month_check CHECK (exp_month BETWEEN 1 AND 12),
        exp_year smallint NOT NULL,
        created_at timestamptz NOT NULL DEFAULT now(),
        updated_at timestamptz NOT NULL DEFAULT now()
      )`);
    await q.query(`CREATE INDEX idx_payment_instruments_user_created ON payment_instruments (user_id, created_at, id)`);
    await q.query(`CREATE INDEX idx_payment_instruments_company ON payment_instruments (company_id)`);
    await q.query(`CREATE INDEX idx_payment_instruments_buyer ON payment_instruments (buyer_id)`);

    await q.query(`
      CREATE TABLE wallets (
        id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
        company_id uuid NOT NULL CONSTRAINT wallets_company_id_fkey REFERENCES companies (id),
        customer_id uuid NOT NULL CONSTRAINT wallets_customer_id_fkey REFERENCES customers (id),
        currency char(3) NOT NULL,
        balance integer NOT NULL DEFAULT 0 CONSTRAINT wallets_balance_check CHECK (balance >= 0),
        created_at timestamptz NOT NULL DEFAULT now(),
        updated_at timestamptz NOT NULL DEFAULT now()
      )`);
    await q.query(`CREATE UNIQUE INDEX uq_wallets_company_customer ON wallets (company_id, customer_id)`);
    await q.query(`CREATE INDEX idx_wallets_customer ON wallets (customer_id)`);

    await q.query(`
      CREATE TABLE payment_transactions (
        id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
        company_id uuid NOT NULL CONSTRAINT payment_transactions_company_id_fkey REFERENCES companies (id),
        customer_id uuid NOT NULL CONSTRAINT payment_transactions_customer_id_fkey REFERENCES customers (id),
        order_id uuid CONSTRAINT payment_transactions_order_id_fkey REFERENCES orders (id),
        wallet_id uuid CONSTRAINT payment_transactions_wallet_id_fkey REFERENCES wallets (id),
        instrument_id uuid CONSTRAINT payment_transactions_instrument_id_fkey REFERENCES payment_instruments (id) ON DELETE SET NULL,
        related_transaction_id uuid CONSTRAINT payment_transactions_related_transaction_id_fkey REFERENCES payment_transactions (id),
        batch_id uuid,
        kind text NOT NULL CONSTRAINT payment_transactions_kind_check CHECK (kind IN ('charge', 'refund', 'offline_payment', 'fee', 'adjustment', 'wallet_credit', 'wallet_debit')),
        status text NOT NULL CONSTRAINT payment_transactions_status_check CHECK (status IN ('pending', 'succeeded', 'failed')),
        method text CONSTRAINT payment_transactions_method_check CHECK (method IN ('instrument', 'wallet', 'cash', 'cheque', 'bank_transfer')),
        amount integer NOT NULL CONSTRAINT payment_transactions_amount_check CHECK (amount > 0),
        currency char(3) NOT NULL,
        provider_ref text,
        failure_code text,
        offline_reference text,
        idempotency_key text,
        description text,
        created_by uuid,
        created_at timestamptz NOT NULL DEFAULT now(),
        updated_at timestamptz NOT NULL DEFAULT now()
      )`);
    await q.query(`CREATE UNIQUE INDEX uq_payment_transactions_company_key ON payment_transactions (company_id, idempotency_key) WHERE idempotency_key IS NOT NULL`);
    // One index per list filter and sort (company lists, a customer's, an order's, a wallet's).
    await q.query(`CREATE INDEX idx_payment_transactions_company_created ON payment_transactions (company_id, created_at, id)`);
    await q.query(`CREATE INDEX idx_payment_transactions_company_amount ON payment_transactions (company_id, amount, id)`);
    await q.query(`CREATE INDEX idx_payment_transactions_company_kind_created ON payment_transactions (company_id, kind, created_at, id)`);
    await q.query(`CREATE INDEX idx_payment_transactions_company_status_created ON payment_transactions (company_id, status, created_at, id)`);
    await q.query(`CREATE INDEX idx_payment_transactions_company_method_created ON payment_transactions (company_id, method, created_at, id)`);
    await q.query(`CREATE INDEX idx_payment_transactions_customer_created ON payment_transactions (customer_id, created_at, id)`);
    await q.query(`CREATE INDEX idx_payment_transactions_order_created ON payment_transactions (order_id, created_at, id) WHERE order_id IS NOT NULL`);
    await q.query(`CREATE INDEX idx_payment_transactions_wallet_created ON payment_transactions (wallet_id, created_at, id) WHERE wallet_id IS NOT NULL`);
    await q.query(`CREATE INDEX idx_payment_transactions_instrument ON payment_transactions (instrument_id) WHERE instrument_id IS NOT NULL`);
    await q.query(`CREATE INDEX idx_payment_transactions_related ON payment_transactions (related_transaction_id) WHERE related_transaction_id IS NOT NULL`);
    await q.query(`CREATE INDEX idx_payment_transactions_batch ON payment_transactions (batch_id) WHERE batch_id IS NOT NULL`);

    // Dues: the orders with a balance (not rejected), by due date, per company and per customer.
    await q.query(`CREATE INDEX idx_orders_company_dues ON orders (company_id, due_date, id) WHERE total_amount > paid_amount AND status <> 'rejected'`);
    await q.query(`CREATE INDEX idx_orders_customer_dues ON orders (company_id, customer_id, due_date, id) WHERE total_amount > paid_amount AND status <> 'rejected'`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`DROP INDEX idx_orders_customer_dues`);
    await q.query(`DROP INDEX idx_orders_company_dues`);
    await q.query(`DROP TABLE payment_transactions`);
    await q.query(`DROP TABLE wallets`);
    await q.query(`DROP TABLE payment_instruments`);
    await q.query(`DROP TABLE payment_buyers`);
  }
}
