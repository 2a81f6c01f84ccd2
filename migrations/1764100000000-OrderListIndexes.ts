import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Indexes for the order lists' default sort (`-created_at`: `created_at DESC, id`), so a page is read
 * from the index instead of sorting every order of the company: the company's list, and a customer's
 * (the customer scope, or `customer_id` as a filter). The existing indexes stay: none leads with
 * (company_id, created_at); idx_orders_customer (customer_id, status) also serves the customer foreign key.
 */
export class OrderListIndexes1764100000000 implements MigrationInterface {
  name = 'OrderListIndexes1764100000000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`CREATE INDEX idx_orders_company_created ON orders (company_id, created_at DESC, id)`);
    await q.query(`CREATE INDEX idx_orders_company_customer_created ON orders (company_id, customer_id, created_at DESC, id)`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`DROP INDEX IF EXISTS idx_orders_company_customer_created`);
    await q.query(`DROP INDEX IF EXISTS idx_orders_company_created`);
  }
}
