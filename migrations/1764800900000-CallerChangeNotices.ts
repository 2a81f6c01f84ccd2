import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Issue #24: a notice on the channel `caller_changed` whenever a row the caller's statement reads changes
 * in what it reads (src/common/access/caller-changes.ts keeps callers it has read and drops them on these
 * notices). PostgreSQL delivers a notice when its transaction commits, to every listening session, in
 * commit order. Payloads: `token:<jti>`, `user:<id>` (the user, its customer or driver record), `admin:<id>`,
 * `company:<id>`, and `*` (a TRUNCATE, or a purge of tokens: drop them all).
 *
 * What the caller's statement reads (src/common/access/jwt.strategy.ts and the parts its modules register):
 * auth_tokens (revoked_at, expires_at, the subject), users (type, name, email, status, company_id),
 * companies (status, timezone, owner_id, deleted_at), customers (the record, demerit_blocked), drivers
 * (the record), admins (name, email). A new token or a new user is in no one's memory: INSERTs of those
 * send nothing.
 */
/** A row trigger on UPDATE of the columns the caller's statement reads: it sends `<kind>:<key column>` when one of them changed. */
const onUpdate = (table: string, kind: string, key: string, columns: string[]) => ({
  table,
  name: `caller_changed_${table}`,
  sql: `AFTER UPDATE ON ${table} FOR EACH ROW WHEN (${columns.map((c) => `OLD.${c} IS DISTINCT FROM NEW.${c}`).join(' OR ')})
        EXECUTE FUNCTION caller_changed('${kind}', '${key}')`,
});
/** A row trigger on other events (a role record's INSERT, a DELETE). */
const onRows = (table: string, events: string, kind: string, key: string) => ({
  table,
  name: `caller_changed_${table}_${events.toLowerCase().replace(/ or /g, '_')}`,
  sql: `AFTER ${events} ON ${table} FOR EACH ROW EXECUTE FUNCTION caller_changed('${kind}', '${key}')`,
});

const TRIGGERS: { table: string; name: string; sql: string }[] = [
  onUpdate('auth_tokens', 'token', 'jti', ['revoked_at', 'expires_at', 'user_id', 'admin_id']),
  // Token purges delete many rows at once: one notice for the statement.
  { table: 'auth_tokens', name: 'caller_changed_auth_tokens_delete', sql: `AFTER DELETE ON auth_tokens FOR EACH STATEMENT EXECUTE FUNCTION caller_changed('*')` },
  onUpdate('users', 'user', 'id', ['type', 'name', 'email', 'status', 'company_id']),
  onRows('users', 'DELETE', 'user', 'id'),
  onUpdate('companies', 'company', 'id', ['status', 'timezone', 'owner_id', 'deleted_at']),
  onRows('companies', 'DELETE', 'company', 'id'),
  onUpdate('customers', 'user', 'id', ['id', 'demerit_blocked']),
  onRows('customers', 'INSERT OR DELETE', 'user', 'id'),
  onRows('drivers', 'INSERT OR DELETE', 'user', 'id'),
  onUpdate('admins', 'admin', 'id', ['name', 'email']),
  onRows('admins', 'DELETE', 'admin', 'id'),
];

const TRUNCATED = ['auth_tokens', 'users', 'companies', 'customers', 'drivers', 'admins'];

export class CallerChangeNotices1764800900000 implements MigrationInterface {
  name = 'CallerChangeNotices1764800900000';

  async up(q: QueryRunner): Promise<void> {
    // Row triggers name their kind and key column; statement triggers (TRUNCATE, token purges) send '*'.
    await q.query(`
      CREATE FUNCTION caller_changed() RETURNS trigger LANGUAGE plpgsql AS $$
        BEGIN
          IF TG_LEVEL = 'STATEMENT' THEN
            PERFORM pg_notify('caller_changed', '*');
          ELSE
            PERFORM pg_notify('caller_changed', TG_ARGV[0] || ':' || ((CASE WHEN TG_OP = 'DELETE' THEN to_jsonb(OLD) ELSE to_jsonb(NEW) END) ->> TG_ARGV[1]));
          END IF;
          RETURN NULL;
        END $$`);
    for (const t of TRIGGERS) await q.query(`CREATE TRIGGER ${t.name} ${t.sql}`);
    for (const table of TRUNCATED) await q.query(`CREATE TRIGGER caller_changed_${table}_truncated AFTER TRUNCATE ON ${table} FOR EACH STATEMENT EXECUTE FUNCTION caller_changed('*')`);
  }

  async down(q: QueryRunner): Promise<void> {
    for (const table of TRUNCATED) await q.query(`DROP TRIGGER caller_changed_${table}_truncated ON ${table}`);
    for (const t of TRIGGERS) await q.query(`DROP TRIGGER ${t.name} ON ${t.table}`);
    await q.query(`DROP FUNCTION caller_changed()`);
  }
}
