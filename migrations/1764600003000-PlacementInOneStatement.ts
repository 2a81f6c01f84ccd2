import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Issue #24: placement writes the order with its number in one statement (`OrdersRepository#insertPlacement`:
 * the counter, the order, its history and its lines), so the negative placeholder numbers an order carried
 * until its number was taken (1764150000000-OrderListCounts) are gone, and their sequence with them.
 */
export class PlacementInOneStatement1764600003000 implements MigrationInterface {
  name = 'PlacementInOneStatement1764600003000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`DROP SEQUENCE order_number_placeholders`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`CREATE SEQUENCE order_number_placeholders`);
  }
}
