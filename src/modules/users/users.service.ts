import { Injectable } from '@nestjs/common';
import { DataSource, EntityManager, In } from 'typeorm';
import { ApiError } from '../../common/http/api-error';
import { hashPassword } from '../../common/security/passwords';
import { CompanySummaryDto, UserDto } from './user.dto';
import { jsonValue } from '../../database/json-value';
import { preparedQuery } from '../../database/prepared-query';
import { CompanySummaries } from './company-summaries';
import { MemberProfiles } from './member-profiles';
import type { ContactChanges, UserStatus } from './user.types';
import { User, UserType } from './user.entity';
import { isUniqueViolation } from '../../database/pg-errors';

export interface NewUser {
  type: UserType;
  name: string;
  email: string;
  phone?: string | null;
  password?: string | null;
  companyId?: string | null;
}

/** What login needs of a user. */
export interface UserCredentials {
  id: string;
  type: UserType;
  passwordHash: string | null;
}

/** A row of the profile query (`users` columns as the driver returns them). */
/** A user's row as `profileOf` renders it: the user's columns and those of `profileColumnsSql`. */
export interface ProfileRow {
  id: string;
  type: UserType;
  name: string;
  email: string;
  status: UserStatus;
  company_id: string | null;
  profile_phone: string | null;
  profile_email_verified_at: Date | null;
  profile_created_at: Date;
  profile_company: CompanySummaryDto | string | null;
}

/** Creates users with their role record, and renders them. E-mail is unique among non-admin users. */
@Injectable()
export class UsersService {
  constructor(
    private readonly ds: DataSource,
    private readonly profiles: MemberProfiles,
    private readonly companies: CompanySummaries,
  ) {}

  /** Creates the user (and its customer or driver profile) through the caller's transaction. */
  async create(m: EntityManager, u: NewUser): Promise<User> {
    const [taken] = await m.query<{ '?column?': number }[]>(`SELECT 1 FROM users WHERE lower(email) = lower($1)`, [u.email]);
    if (taken) throw emailTaken();
    const passwordHash = u.password ? await hashPassword(u.password) : null;
    let user: User;
    try {
      user = await m.save(
        m.create(User, { type: u.type, name: u.name, email: u.email.toLowerCase(), phone: u.phone ?? null, passwordHash, companyId: u.companyId ?? null, status: 'active' }),
      );
    } catch (e) {
      if (isUniqueViolation(e)) throw emailTaken();
      throw e;
    }
    await this.profiles.create(m, u.type, user);
    return user;
  }

  /**
   * Applies name, e-mail and phone changes (undefined = unchanged; e-mail unique, 409 EMAIL_TAKEN; a
   * new address is unverified) through the caller's transaction. Returns the changed field names.
   */
  async updateContact(m: EntityManager, userId: string, changes: ContactChanges): Promise<string[]> {
    const user = await m.getRepository(User).findOne({ where: { id: userId }, lock: { mode: 'pessimistic_write' } });
    if (!user) throw ApiError.notFound('User');
    const patch: Partial<User> = {};
    if (changes.name !== undefined && changes.name !== user.name) patch.name = changes.name;
    if (changes.phone !== undefined && (changes.phone || null) !== user.phone) patch.phone = changes.phone || null;
    if (changes.email !== undefined && changes.email.toLowerCase() !== user.email.toLowerCase()) {
      const email = changes.email.toLowerCase();
      const [taken] = await m.query<{ '?column?': number }[]>(`SELECT 1 FROM users WHERE lower(email) = $1 AND id <> $2`, [email, user.id]);
      if (taken) throw emailTaken();
      patch.email = email;
      patch.emailVerifiedAt = null;
    }
    const keys = Object.keys(patch);
    if (!keys.length) return [];
    try {
      await m.update(User, { id: user.id }, patch);
    } catch (e) {
      if (isUniqueViolation(e)) throw emailTaken();
      throw e;
    }
    return keys.map((k) => (k === 'emailVerifiedAt' ? 'email_verified' : k));
  }

  /** Activates or deactivates a user (the access guard reads it on every request). */
  async setStatus(m: EntityManager, userId: string, status: UserStatus): Promise<void> {
    await m.update(User, { id: userId }, { status });
  }

  /** Display names of users by id (missing ids are left out). */
  async names(ids: string[], m: EntityManager = this.ds.manager): Promise<Map<string, string>> {
    if (!ids.length) return new Map();
    const rows = await m.getRepository(User).find({ select: { id: true, name: true }, where: { id: In(ids) } });
    return new Map(rows.map((r) => [r.id, r.name]));
  }

  /** Reports (admin dashboard): users per type and status, and those created in [from, to] (UTC dates). One statement. */
  async typeCounts(from: string, to: string): Promise<{ type: UserType; status: UserStatus; total: number; created: number }[]> {
    const rows = await this.ds.query<{ type: UserType; status: UserStatus; total: number; created: number }[]>(
      `SELECT type, status, count(*)::int AS total, (count(*) FILTER (WHERE created_at >= $1::date AND created_at < $2::date + 1))::int AS created
         FROM users GROUP BY type, status ORDER BY type, status`,
      [from, to],
    );
    return rows.map((r) => ({ type: r.type, status: r.status, total: Number(r.total), created: Number(r.created) }));
  }

  /** The ids of a company's active company users (recipients of what concerns the company: chats, notifications). */
  async companyUserIds(companyId: string, m: EntityManager = this.ds.manager): Promise<string[]> {
    const rows = await m.getRepository(User).find({ select: { id: true }, where: { companyId, type: 'company', status: 'active' }, order: { createdAt: 'ASC' } });
    return rows.map((r) => r.id);
  }

  /** The user's company id, with the user row locked for the rest of the caller's transaction. */
  async lockCompanyOf(m: EntityManager, userId: string): Promise<string | null> {
    const user = await m.getRepository(User).findOne({ select: { id: true, companyId: true }, where: { id: userId }, lock: { mode: 'pessimistic_write' } });
    return user?.companyId ?? null;
  }

  /** Makes the user a member of a company (a company user creating its company). */
  async assignCompany(m: EntityManager, userId: string, companyId: string): Promise<void> {
    await m.update(User, { id: userId }, { companyId });
  }

  /** The id, type and password hash of the user with this e-mail (any case), for login; null when none. */
  async credentialsByEmail(email: string, m: EntityManager = this.ds.manager): Promise<UserCredentials | null> {
    const [row] = await m.query<{ id: string; type: UserType; password_hash: string | null }[]>(`SELECT id, type, password_hash FROM users WHERE lower(email) = lower($1)`, [email]);
    return row ? { id: row.id, type: row.type, passwordHash: row.password_hash } : null;
  }

  /** The user's password hash (null when the user has none or is gone). */
  async passwordHashOf(userId: string, m: EntityManager = this.ds.manager): Promise<string | null> {
    const [row] = await m.query<{ password_hash: string | null }[]>(`SELECT password_hash FROM users WHERE id = $1`, [userId]);
    return row?.password_hash ?? null;
  }

  /** Whether a user has this e-mail (any case). */
  async existsByEmail(email: string, m: EntityManager = this.ds.manager): Promise<boolean> {
    const [row] = await m.query<{ id: string }[]>(`SELECT id FROM users WHERE lower(email) = lower($1)`, [email]);
    return !!row;
  }

  /** Whether the user exists. */
  async exists(userId: string, m: EntityManager = this.ds.manager): Promise<boolean> {
    const [row] = await m.query<{ id: string }[]>(`SELECT id FROM users WHERE id = $1`, [userId]);
    return !!row;
  }

  /** The id of the user with this e-mail (any case), row locked for the rest of the caller's transaction; null when none. */
  async lockByEmail(m: EntityManager, email: string): Promise<string | null> {
    const [row] = await m.query<{ id: string }[]>(`SELECT id FROM users WHERE lower(email) = lower($1) FOR UPDATE`, [email]);
    return row?.id ?? null;
  }

  /** Marks the e-mail address (any case) verified, keeping an earlier verification time. */
  async markEmailVerified(m: EntityManager, email: string): Promise<void> {
    await m.query(`UPDATE users SET email_verified_at = coalesce(email_verified_at, now()), updated_at = now() WHERE lower(email) = lower($1)`, [email]);
  }

  /**
   * Sets the user's password hash. `verifiesEmail` (a reset by mailed code proves the address) also
   * marks the e-mail verified, keeping an earlier verification time.
   */
  async setPassword(m: EntityManager, userId: string, passwordHash: string, opts: { verifiesEmail?: boolean } = {}): Promise<void> {
    if (opts.verifiesEmail) {
      await m.query(`UPDATE users SET password_hash = $2, email_verified_at = coalesce(email_verified_at, now()), updated_at = now() WHERE id = $1`, [userId, passwordHash]);
    } else {
      await m.query(`UPDATE users SET password_hash = $2, updated_at = now() WHERE id = $1`, [userId, passwordHash]);
    }
  }

  /** The caller's profile (`/auth/me`, login `user`); the company summary comes from the companies module. */
  async profile(userId: string, m?: EntityManager): Promise<UserDto> {
    const sql = `SELECT u.id, u.type, u.name, u.email, u.status, u.company_id, ${this.profileColumnsSql('u')}
         FROM users u
        WHERE u.id = $1`;
    // Outside a transaction a prepared statement.
    const [row] = m ? await m.query<ProfileRow[]>(sql, [userId]) : await preparedQuery<ProfileRow>(this.ds, 'user_profile', sql, [userId]);
    if (!row) throw ApiError.notFound('User');
    return this.profileOf(row);
  }

  /**
   * The profile's further columns of the users row `alias` (named `profile_*`): with the user's id, type,
   * name, email, status and company_id, what `profileOf` renders. For a statement that reads the user
   * anyway: the caller's query of `/auth/me` (the auth module registers it with the ActorResolver).
   */
  profileColumnsSql(alias: string): string {
    return `${alias}.phone AS profile_phone, ${alias}.email_verified_at AS profile_email_verified_at, ${alias}.created_at AS profile_created_at,
              ${this.companies.sql(`${alias}.company_id`)} AS profile_company`;
  }

  /** The profile from a row of the user's columns and `profileColumnsSql`'s. */
  profileOf(row: ProfileRow): UserDto {
    const company = jsonValue<CompanySummaryDto | null>(row.profile_company);
    return {
      id: row.id,
      type: row.type,
      name: row.name,
      email: row.email,
      phone: row.profile_phone,
      status: row.status,
      company_id: row.company_id,
      company: company ? { id: company.id, name: company.name, status: company.status } : null,
      email_verified: row.profile_email_verified_at !== null,
      created_at: new Date(row.profile_created_at).toISOString(),
    };
  }
}

const emailTaken = () => ApiError.conflict('EMAIL_TAKEN', 'This e-mail address is already registered.');
