import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * The order lists at any company size (#10):
 * - One index per sort the lists offer, ascending with `id` last, so that both directions of a sort
 *   (`-created_at` and `created_at`, the tiebreak `id` following the direction) read a page straight
 *   from the index: created_at (company-wide and per customer), delivery_date, total_amount, status.
 *   `number` is served by uq_orders_company_number. The descending pair of 1764100000000 is replaced.
 * - `order_status_counts`: how many orders each customer of a company has in each status, kept by a
 *   trigger on `orders` in the same transaction as the change, so that `meta.total` of a list filtered
 *   by nothing but status, ongoing and customer is a sum of a few rows instead of a count of every order.
 *   The trigger is deferred to the commit, so a counter row is locked for the commit only, not for the
 *   rest of the transaction (placements of one customer would queue on it); an UPDATE touches its two
 *   counter rows in status order, so two transactions cannot deadlock on them.
 * - `order_number_placeholders`: a placement inserts its order with a negative placeholder number from
 *   this sequence and takes the company's next number just before the commit, so the counter row
 *   (order_counters) is locked for the last statements only.
 */
export class OrderListCounts1764150000000 implements MigrationInterface {
  name = 'OrderListCounts1764150000000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`DROP INDEX idx_orders_company_created`);
    await q.query(`DROP INDEX idx_orders_company_customer_created`);
    await q.query(`DROP INDEX idx_orders_company_delivery`);
    await q.query(`CREATE INDEX idx_orders_company_created ON orders (company_id, created_at, id)`);
    await q.query(`CREATE INDEX idx_orders_company_customer_created ON orders (company_id, customer_id, created_at, id)`);
    await q.query(`CREATE INDEX idx_orders_company_delivery ON orders (company_id, delivery_date, id)`);
    await q.query(`CREATE INDEX idx_orders_company_total ON orders (company_id, total_amount, id)`);
    await q.query(`CREATE INDEX idx_orders_company_status_id ON orders (company_id, status, id)`);

    await q.query(`
      CREATE TABLE order_status_counts (
        company_id uuid NOT NULL,
        customer_id uuid NOT NULL,
        status text NOT NULL,
        n integer NOT NULL DEFAULT 0,
        CONSTRAINT pk_order_status_counts PRIMARY KEY (company_id, customer_id, status)
      )`);
    await q.query(`
      CREATE FUNCTION order_status_counts_apply() RETURNS trigger LANGUAGE plpgsql AS $fn$
      BEGIN
        IF TG_OP = 'UPDATE' AND NEW.status = OLD.status AND NEW.customer_id = OLD.customer_id AND NEW.company_id = OLD.company_id THEN
          RETURN NULL;
        END IF;
        IF TG_OP = 'INSERT' OR (TG_OP = 'UPDATE' AND NEW.status < OLD.status) THEN
          INSERT INTO order_status_counts AS c (company_id, customer_id, status, n) VALUES (NEW.company_id, NEW.customer_id, NEW.status, 1)
            ON CONFLICT (company_id, customer_id, status) DO UPDATE SET n = c.n + 1;
        END IF;
        IF TG_OP IN ('UPDATE', 'DELETE') THEN
          UPDATE order_status_counts SET n = n - 1 WHERE company_id = OLD.company_id AND customer_id = OLD.customer_id AND status = OLD.status;
        END IF;
        IF TG_OP = 'UPDATE' AND NEW.status >= OLD.status THEN
          INSERT INTO order_status_counts AS c (company_id, customer_id, status, n) VALUES (NEW.company_id, NEW.customer_id, NEW.status, 1)
            ON CONFLICT (company_id, customer_id, status) DO UPDATE SET n = c.n + 1;
        END IF;
        RETURN NULL;
      END
      $fn$`);
    await q.query(`
      CREATE CONSTRAINT TRIGGER orders_status_counts AFTER INSERT OR DELETE OR UPDATE OF status, customer_id, company_id ON orders
        DEFERRABLE INITIALLY DEFERRED FOR EACH ROW EXECUTE FUNCTION order_status_counts_apply()`);
    await q.query(`CREATE SEQUENCE order_number_placeholders`);
    await q.query(`
      INSERT INTO order_status_counts (company_id, customer_id, status, n)
      SELECT company_id, customer_id, status, count(*) FROM orders GROUP BY company_id, customer_id, status`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`DROP SEQUENCE order_number_placeholders`);
    await q.query(`DROP TRIGGER orders_status_counts ON orders`);
    await q.query(`DROP FUNCTION order_status_counts_apply()`);
    await q.query(`DROP TABLE order_status_counts`);
    await q.query(`DROP INDEX idx_orders_company_status_id`);
    await q.query(`DROP INDEX idx_orders_company_total`);
    await q.query(`DROP INDEX idx_orders_company_delivery`);
    await q.query(`DROP INDEX idx_orders_company_customer_created`);
    await q.query(`DROP INDEX idx_orders_company_created`);
    await q.query(`CREATE INDEX idx_orders_company_delivery ON orders (company_id, delivery_date)`);
    await q.query(`CREATE INDEX idx_orders_company_created ON orders (company_id, created_at DESC, id)`);
    await q.query(`CREATE INDEX idx_orders_company_customer_created ON orders (company_id, customer_id, created_at DESC, id)`);
  }
}
