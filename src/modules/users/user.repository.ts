import { Injectable } from '@nestjs/common';
import { type EntityManager, type FindOptionsWhere, In } from 'typeorm';
import { Scope, SystemReach } from '../../common/access/scope';
import { PlatformReach, scopeWhere } from '../../common/access/tenant-policy';
import { ApiError } from '../../common/http/api-error';
import { preparedQuery } from '../../database/prepared-query';
import { ModuleRepository } from '../../database/repository';
import { GenerateSql, SQL_SAMPLE } from '../../database/generate-sql';
import { User, UserType } from './user.entity';
import type { CompanySummaryDto } from './user.dto';
import type { UserStatus } from './user.types';

/** A user's row as `UsersService#profileOf` renders it: the user's columns and those of `profileColumns`. */
export interface ProfileRow {
  id: string;
  type: UserType;
  name: string;
  email: string;
  status: UserStatus;
  company_id: string | null;
  profile_phone: string | null;
  /** A Date from this repository's statement; ISO 8601 text from the caller's statement (a JSON row). */
  profile_email_verified_at: Date | string | null;
  profile_created_at: Date | string;
  profile_company: CompanySummaryDto | string | null;
}

const SAMPLE_REACH = SystemReach.of('a sample');
const SAMPLE_SCOPE = Scope.company(SQL_SAMPLE.companyId, SQL_SAMPLE.actorId);

/**
 * The `users` table: the module's only SQL (docs/data-layer.md). A user is reached with a `Scope` (a
 * company's members: the tenant policy's conditions), or with a `SystemReach` where no tenant is known:
 * login, password reset and e-mail verification by address, the caller's own account (a company user
 * has no company before creating it), e-mail uniqueness across the platform.
 */
@Injectable()
export class UserRepository extends ModuleRepository {
  /** Whether a user other than `exceptId` has this e-mail (any case): unique across the platform. */
  @GenerateSql({ name: 'anyone', params: () => [SAMPLE_REACH, 'someone@example.com'] }, { name: 'another user', params: () => [SAMPLE_REACH, 'someone@example.com', SQL_SAMPLE.id] })
  async emailTaken(reach: SystemReach, email: string, exceptId?: string): Promise<boolean> {
    const [taken] = exceptId
      ? await this.sql<{ '?column?': number }>(`SELECT 1 FROM users WHERE lower(email) = $1 AND id <> $2`, [email, exceptId])
      : await this.sql<{ '?column?': number }>(`SELECT 1 FROM users WHERE lower(email) = lower($1)`, [email]);
    return !!taken;
  }

  /** A new user: a member of the scope's company, or (a `SystemReach`) of no company yet. */
  @GenerateSql(
    { name: 'a member', params: () => [SAMPLE_SCOPE, { type: 'customer', name: 'Ann', email: 'someone@example.com', phone: null, passwordHash: null, status: 'active' }] },
    { name: 'of no company', params: () => [SAMPLE_REACH, { type: 'company', name: 'Ann', email: 'someone@example.com', phone: null, passwordHash: null, status: 'active' }] },
  )
  insert(who: Scope | SystemReach, values: Pick<User, 'type' | 'name' | 'email' | 'phone' | 'passwordHash' | 'status'>): Promise<User> {
    return this.m.save(this.m.create(User, { ...values, companyId: who instanceof Scope ? who.companyId : null }));
  }

  /** The user as `who` reaches it, its row locked (FOR UPDATE) for the rest of the unit; null when none. */
  @GenerateSql({ params: () => [SAMPLE_SCOPE, SQL_SAMPLE.id] })
  lock(who: Scope | SystemReach, userId: string): Promise<User | null> {
    return this.locked.getRepository(User).findOne({ where: byId(this.locked, who, userId), lock: { mode: 'pessimistic_write' } });
  }

  /** Changes the user as `who` reaches it. */
  @GenerateSql({ name: 'a member', params: () => [SAMPLE_SCOPE, SQL_SAMPLE.id, { name: 'Ann' }] }, { name: 'own account', params: () => [SAMPLE_REACH, SQL_SAMPLE.id, { name: 'Ann' }] })
  async update(who: Scope | SystemReach, userId: string, patch: Partial<User>): Promise<void> {
    await this.m.update(User, byId(this.m, who, userId), patch);
  }

  /** Display names of the scope's company's users by id (missing ids are left out). One statement. */
  async names(scope: Scope, ids: string[]): Promise<Map<string, string>> {
    const rows = await this.m.getRepository(User).find({ select: { id: true, name: true }, where: { companyId: scope.companyId, id: In(ids) } });
    return new Map(rows.map((r) => [r.id, r.name]));
  }

  /** Users (of the companies the administrator's `reach` covers) per type and status, and those created in [from, to] (UTC dates). One statement. */
  @GenerateSql({ params: () => [new PlatformReach(), SQL_SAMPLE.date, SQL_SAMPLE.date] }, { name: 'one company', params: () => [new PlatformReach(SQL_SAMPLE.companyId), SQL_SAMPLE.date, SQL_SAMPLE.date] })
  typeCounts(reach: PlatformReach, from: string, to: string): Promise<{ type: UserType; status: UserStatus; total: number; created: number }[]> {
    return this.sql(
      `SELECT type, status, count(*)::int AS total, (count(*) FILTER (WHERE created_at >= $1::date AND created_at < $2::date + 1))::int AS created
         FROM users${reach.companyId ? ' WHERE company_id = $3' : ''} GROUP BY type, status ORDER BY type, status`,
      reach.companyId ? [from, to, reach.companyId] : [from, to],
    );
  }

  /** The ids of the scope's company's active company users, oldest first. */
  async companyUserIds(scope: Scope): Promise<string[]> {
    const rows = await this.m.getRepository(User).find({ select: { id: true }, where: { companyId: scope.companyId, type: 'company', status: 'active' }, order: { createdAt: 'ASC' } });
    return rows.map((r) => r.id);
  }

  /** The user's company id, the row locked (FOR UPDATE) for the rest of the unit (the caller's own account, before it has a company). */
  @GenerateSql({ params: () => [SAMPLE_REACH, SQL_SAMPLE.id] })
  async lockCompanyOf(reach: SystemReach, userId: string): Promise<string | null> {
    const user = await this.locked.getRepository(User).findOne({ select: { id: true, companyId: true }, where: { id: userId }, lock: { mode: 'pessimistic_write' } });
    return user?.companyId ?? null;
  }

  @GenerateSql({ params: () => [SAMPLE_REACH, 'someone@example.com'] })
  async credentialsByEmail(reach: SystemReach, email: string): Promise<{ id: string; type: UserType; password_hash: string | null } | null> {
    const [row] = await this.sql<{ id: string; type: UserType; password_hash: string | null }>(`SELECT id, type, password_hash FROM users WHERE lower(email) = lower($1)`, [email]);
    return row ?? null;
  }

  @GenerateSql({ params: () => [SAMPLE_REACH, SQL_SAMPLE.id] })
  async passwordHashOf(reach: SystemReach, userId: string): Promise<string | null> {
    const [row] = await this.sql<{ password_hash: string | null }>(`SELECT password_hash FROM users WHERE id = $1`, [userId]);
    return row?.password_hash ?? null;
  }

  @GenerateSql({ params: () => [SAMPLE_REACH, 'someone@example.com'] })
  async existsByEmail(reach: SystemReach, email: string): Promise<boolean> {
    const [row] = await this.sql<{ id: string }>(`SELECT id FROM users WHERE lower(email) = lower($1)`, [email]);
    return !!row;
  }

  @GenerateSql({ params: () => [SAMPLE_REACH, SQL_SAMPLE.id] })
  async exists(reach: SystemReach, userId: string): Promise<boolean> {
    const [row] = await this.sql<{ id: string }>(`SELECT id FROM users WHERE id = $1`, [userId]);
    return !!row;
  }

  /** The id of the user with this e-mail (any case), the row locked (FOR UPDATE) for the rest of the unit; null when none. */
  @GenerateSql({ params: () => [SAMPLE_REACH, 'someone@example.com'] })
  async lockByEmail(reach: SystemReach, email: string): Promise<string | null> {
    const [row] = await this.locked.query<{ id: string }[]>(`SELECT id FROM users WHERE lower(email) = lower($1) FOR UPDATE`, [email]);
    return row?.id ?? null;
  }

  @GenerateSql({ params: () => [SAMPLE_REACH, 'someone@example.com'] })
  async markEmailVerified(reach: SystemReach, email: string): Promise<void> {
    await this.sql(`UPDATE users SET email_verified_at = coalesce(email_verified_at, now()), updated_at = now() WHERE lower(email) = lower($1)`, [email]);
  }

  @GenerateSql({ name: 'password only', params: () => [SAMPLE_REACH, SQL_SAMPLE.id, 'hash', false] }, { name: 'verifies the e-mail', params: () => [SAMPLE_REACH, SQL_SAMPLE.id, 'hash', true] })
  async setPassword(reach: SystemReach, userId: string, passwordHash: string, verifiesEmail: boolean): Promise<void> {
    if (verifiesEmail) {
      await this.sql(`UPDATE users SET password_hash = $2, email_verified_at = coalesce(email_verified_at, now()), updated_at = now() WHERE id = $1`, [userId, passwordHash]);
    } else {
      await this.sql(`UPDATE users SET password_hash = $2, updated_at = now() WHERE id = $1`, [userId, passwordHash]);
    }
  }

  /**
   * The profile row with its company summary (`companySql`: the scalar subquery the companies module
   * registers, `CompanySummaries`). In a unit through its manager; outside one a named prepared
   * statement (`/auth/me` runs it on every call).
   */
  @GenerateSql({ params: () => [SAMPLE_REACH, SQL_SAMPLE.id, 'NULL::json'] })
  async profile(reach: SystemReach, userId: string, companySql: string): Promise<ProfileRow | undefined> {
    const sql = `SELECT u.id, u.type, u.name, u.email, u.status, u.company_id, ${UserRepository.profileColumns('u', companySql)}
         FROM users u
        WHERE u.id = $1`;
    const [row] = this.uow.active ? await this.sql<ProfileRow>(sql, [userId]) : await preparedQuery<ProfileRow>(this.uow.ds, 'user_profile', sql, [userId]);
    return row;
  }

  /**
   * The profile's further columns of the users row `alias` (named `profile_*`), for a statement that reads
   * the user anyway (the caller's query of `/auth/me`, registered by UsersModule with the ActorResolver).
   */
  static profileColumns(alias: string, companySql: string): string {
    return `${alias}.phone AS profile_phone, ${alias}.email_verified_at AS profile_email_verified_at, ${alias}.created_at AS profile_created_at,
              ${companySql} AS profile_company`;
  }
}

/** The user `userId` as `who` reaches it: by a scope, the tenant policy's conditions (404 for a scope that reaches no users); by a system reach, the id alone. */
function byId(m: EntityManager, who: Scope | SystemReach, userId: string): FindOptionsWhere<User> {
  if (!(who instanceof Scope)) return { id: userId };
  const where = scopeWhere(m, User, who);
  // A customer's or driver's scope reaches only the caller's own user (`id`).
  if (!where || (where.id !== undefined && where.id !== userId)) throw ApiError.notFound('User');
  return { ...where, id: userId };
}

/** The user's part of the caller's statement (`CallerSql#user`, registered by UsersModule): the user as `u`, joined to the token `t`. */
export const CALLER_USER_SQL = { join: 'JOIN users u ON u.id = t.user_id', columns: 'u.id, u.type, u.name, u.email, u.status, u.company_id' };
