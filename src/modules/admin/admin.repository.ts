import { Injectable } from '@nestjs/common';
import { ModuleRepository } from '../../database/repository';
import { GenerateSql, SQL_SAMPLE } from '../../database/generate-sql';

/** What login reads of an administrator. */
export interface AdminCredentials {
  id: string;
  password_hash: string;
  failed_logins: number;
  locked_until: Date | null;
}

/** The `admins` table: the module's only SQL (docs/data-layer.md). */
@Injectable()
export class AdminRepository extends ModuleRepository {
  /** Whether an administrator has this e-mail (any case). */
  @GenerateSql({ params: ['someone@example.com'] })
  async emailTaken(email: string): Promise<boolean> {
    const [taken] = await this.sql<{ '?column?': number }>(`SELECT 1 FROM admins WHERE lower(email) = lower($1)`, [email]);
    return !!taken;
  }

  /** A new administrator; its id. */
  @GenerateSql({ params: ['Ada', 'someone@example.com', 'hash'] })
  async insert(name: string, email: string, passwordHash: string): Promise<string> {
    const [row] = await this.sql<{ id: string }>(`INSERT INTO admins (name, email, password_hash) VALUES ($1, $2, $3) RETURNING id`, [name, email, passwordHash]);
    return row.id;
  }

  /** Login's view of the administrator with this e-mail (any case), or null. */
  @GenerateSql({ params: ['someone@example.com'] })
  async credentialsByEmail(email: string): Promise<AdminCredentials | null> {
    const [row] = await this.sql<AdminCredentials>(`SELECT id, password_hash, failed_logins, locked_until FROM admins WHERE lower(email) = lower($1)`, [email]);
    return row ?? null;
  }

  /** Counts a failed login; the failures so far. */
  async recordFailure(id: string): Promise<number> {
    // TypeORM returns [rows, rowCount] for UPDATE … RETURNING.
    const [rows] = (await this.sql(`UPDATE admins SET failed_logins = failed_logins + 1, updated_at = now() WHERE id = $1 RETURNING failed_logins`, [id])) as unknown as [{ failed_logins: number }[], number];
    return rows[0]?.failed_logins ?? 0;
  }

  /** Locks logins for `seconds` from now. */
  @GenerateSql({ params: [SQL_SAMPLE.id, 60] })
  async lockFor(id: string, seconds: number): Promise<void> {
    await this.sql(`UPDATE admins SET locked_until = now() + make_interval(secs => $2) WHERE id = $1`, [id, seconds]);
  }

  /** Clears failed logins and the lock (a successful login). */
  async clearFailures(id: string): Promise<void> {
    await this.sql(`UPDATE admins SET failed_logins = 0, locked_until = NULL WHERE id = $1 AND failed_logins > 0`, [id]);
  }

  /** The id of the administrator with this e-mail (any case), or null. */
  @GenerateSql({ params: ['someone@example.com'] })
  async idByEmail(email: string): Promise<string | null> {
    const [row] = await this.sql<{ id: string }>(`SELECT id FROM admins WHERE lower(email) = lower($1)`, [email]);
    return row?.id ?? null;
  }

  /** The same, the row locked (FOR UPDATE) for the rest of the unit. */
  @GenerateSql({ params: ['someone@example.com'] })
  async lockByEmail(email: string): Promise<string | null> {
    const [row] = await this.locked.query<{ id: string }[]>(`SELECT id FROM admins WHERE lower(email) = lower($1) FOR UPDATE`, [email]);
    return row?.id ?? null;
  }

  /** A new password after a reset: failed logins and the lock are cleared too. */
  @GenerateSql({ params: [SQL_SAMPLE.id, 'hash'] })
  async resetPassword(id: string, passwordHash: string): Promise<void> {
    await this.sql(`UPDATE admins SET password_hash = $2, failed_logins = 0, locked_until = NULL, updated_at = now() WHERE id = $1`, [id, passwordHash]);
  }

  /** The administrator's password hash, or null. */
  async passwordHashOf(id: string): Promise<string | null> {
    const [row] = await this.sql<{ password_hash: string }>(`SELECT password_hash FROM admins WHERE id = $1`, [id]);
    return row?.password_hash ?? null;
  }

  @GenerateSql({ params: [SQL_SAMPLE.id, 'hash'] })
  async setPassword(id: string, passwordHash: string): Promise<void> {
    await this.sql(`UPDATE admins SET password_hash = $2, updated_at = now() WHERE id = $1`, [id, passwordHash]);
  }

  /** Id, name, e-mail and creation time, or null. */
  async profile(id: string): Promise<{ id: string; name: string; email: string; created_at: Date } | null> {
    const [row] = await this.sql<{ id: string; name: string; email: string; created_at: Date }>(`SELECT id, name, email, created_at FROM admins WHERE id = $1`, [id]);
    return row ?? null;
  }
}

/** The administrator's part of the caller's statement (`CallerSql#admin`, registered by AdminModule): `a`, joined to the token `t`. */
export const CALLER_ADMIN_SQL = { join: 'JOIN admins a ON a.id = t.admin_id', columns: 'a.id, a.name, a.email' };
