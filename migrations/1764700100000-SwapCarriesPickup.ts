import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Issue #25, item 1: a swap carries both sides. `jobs.pickup_order_id` is the order whose on-site
 * container a swap takes back (its waste type chooses the station and is what the station ticket must
 * accept; its final bill takes the ticket's overage; its container is the one dumped): the swap's own
 * order for a swap added to one order, the merged pickup's order for a swap made by route collapse (a
 * delivery of another order at the same address). Every swap has one, no other job type has one
 * (`jobs_pickup_order_check`).
 *
 * Data: swaps saved before this migration were planned and ticketed on their own order (the delivery's),
 * which forgot what a merged swap takes back. Each existing swap gets the order of the pickup merged into
 * it (the oldest, should there be several), else its own order. `down` drops the column (the swaps are
 * then as they were).
 */
export class SwapCarriesPickup1764700100000 implements MigrationInterface {
  name = 'SwapCarriesPickup1764700100000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`ALTER TABLE jobs ADD COLUMN pickup_order_id uuid REFERENCES orders (id)`);
    await q.query(
      `UPDATE jobs s
          SET pickup_order_id = coalesce(
                (SELECT p.order_id FROM jobs p WHERE p.merged_into_job_id = s.id ORDER BY p.created_at, p.id LIMIT 1),
                s.order_id)
        WHERE s.type = 'swap'`,
    );
    await q.query(`ALTER TABLE jobs ADD CONSTRAINT jobs_pickup_order_check CHECK ((type = 'swap') = (pickup_order_id IS NOT NULL))`);
    await q.query(`CREATE INDEX idx_jobs_pickup_order ON jobs (pickup_order_id) WHERE pickup_order_id IS NOT NULL`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`DROP INDEX idx_jobs_pickup_order`);
    await q.query(`ALTER TABLE jobs DROP CONSTRAINT jobs_pickup_order_check`);
    await q.query(`ALTER TABLE jobs DROP COLUMN pickup_order_id`);
  }
}
