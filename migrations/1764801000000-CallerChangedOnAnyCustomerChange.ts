import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * The caller's statement reads the customer record's flags as SQL the customers module registers
 * (`CallerSql#customer.flags`, e.g. `demerit_blocked`). 1764800900000-CallerChangeNotices named the one
 * column read today, so a flag over another column would have left kept callers stale without a word. A
 * customer record's update now sends its notice whenever the row changes at all: the trigger follows what
 * the module registers without an edit, and customer records change rarely (one row at a time).
 */
export class CallerChangedOnAnyCustomerChange1764801000000 implements MigrationInterface {
  name = 'CallerChangedOnAnyCustomerChange1764801000000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`DROP TRIGGER caller_changed_customers ON customers`);
    await q.query(`CREATE TRIGGER caller_changed_customers AFTER UPDATE ON customers FOR EACH ROW WHEN (OLD.* IS DISTINCT FROM NEW.*) EXECUTE FUNCTION caller_changed('user', 'id')`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`DROP TRIGGER caller_changed_customers ON customers`);
    await q.query(`CREATE TRIGGER caller_changed_customers AFTER UPDATE ON customers FOR EACH ROW WHEN (OLD.id IS DISTINCT FROM NEW.id OR OLD.demerit_blocked IS DISTINCT FROM NEW.demerit_blocked) EXECUTE FUNCTION caller_changed('user', 'id')`);
  }
}
