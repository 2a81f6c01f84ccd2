import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Issue #22: where money paid above an order's bill goes back, a company setting: `customer` (the
 * customer's own `refund_to` choice, the wallet unless they chose the card), `wallet` or `instrument`
 * (the cards that paid, the rest to the wallet).
 */
export class RefundExcessSetting1764500029000 implements MigrationInterface {
  name = 'RefundExcessSetting1764500029000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(
      `ALTER TABLE company_settings ADD COLUMN refund_excess_to text NOT NULL DEFAULT 'customer'
         CONSTRAINT company_settings_refund_excess_to_check CHECK (refund_excess_to IN ('customer', 'wallet', 'instrument'))`,
    );
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`ALTER TABLE company_settings DROP COLUMN refund_excess_to`);
  }
}
