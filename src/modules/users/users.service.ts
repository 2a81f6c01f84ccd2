import { Injectable } from '@nestjs/common';
import { ApiError } from '../../common/http/api-error';
import { Scope, SystemReach } from '../../common/access/scope';
import type { PlatformReach } from '../../common/access/tenant-policy';
import { hashPassword } from '../../common/security/passwords';
import { CompanySummaryDto, UserDto } from './user.dto';
import { jsonValue } from '../../database/json-value';
import { CompanySummaries } from './company-summaries';
import { MemberProfiles } from './member-profiles';
import type { ContactChanges, UserStatus } from './user.types';
import type { User, UserType } from './user.entity';
import { isUniqueViolation } from '../../database/pg-errors';
import { type ProfileRow, UserRepository } from './user.repository';

export type { ProfileRow } from './user.repository';

export interface NewUser {
  type: UserType;
  name: string;
  email: string;
  phone?: string | null;
  password?: string | null;
  companyId?: string | null;
}

/** E-mail addresses are unique across the platform (every company's users and those of none). */
const EMAILS = SystemReach.of('e-mail uniqueness across the platform');
/** Login, password reset and e-mail verification name a user by address, before any tenant is known. */
const BY_EMAIL = SystemReach.of('authentication by e-mail address');
/** The caller's own account by id (a company user has no company before creating it), a token's user, the relay's mail. */
const BY_ID = SystemReach.of("a user's own account by id");

/** What login needs of a user. */
export interface UserCredentials {
  id: string;
  type: UserType;
  passwordHash: string | null;
}

/**
 * Creates users with their role record, and renders them. E-mail is unique among non-admin users.
 *
 * Writes run in the caller's unit of work (`UnitOfWork#transaction`).
 */
@Injectable()
export class UsersService {
  constructor(
    private readonly users: UserRepository,
    private readonly profiles: MemberProfiles,
    private readonly companies: CompanySummaries,
  ) {}

  /** Creates the user (and its customer or driver profile) in the caller's unit of work: a member of `u.companyId`'s company, or of none yet. */
  async create(u: NewUser): Promise<User> {
    if (await this.users.emailTaken(EMAILS, u.email)) throw emailTaken();
    const passwordHash = u.password ? await hashPassword(u.password) : null;
    const company = u.companyId ? Scope.company(u.companyId) : SystemReach.of('a user of no company yet');
    let user: User;
    try {
      user = await this.users.insert(company, { type: u.type, name: u.name, email: u.email.toLowerCase(), phone: u.phone ?? null, passwordHash, status: 'active' });
    } catch (e) {
      if (isUniqueViolation(e)) throw emailTaken();
      throw e;
    }
    await this.profiles.create(u.type, user);
    return user;
  }

  /**
   * Applies name, e-mail and phone changes (undefined = unchanged; e-mail unique, 409 EMAIL_TAKEN; a
   * new address is unverified) in the caller's unit of work. Returns the changed field names. `scope`:
   * a member of the scope's company (404 otherwise); null: the caller's own account.
   */
  async updateContact(scope: Scope | null, userId: string, changes: ContactChanges): Promise<string[]> {
    const who = scope ?? BY_ID;
    const user = await this.users.lock(who, userId);
    if (!user) throw ApiError.notFound('User');
    const patch: Partial<User> = {};
    if (changes.name !== undefined && changes.name !== user.name) patch.name = changes.name;
    if (changes.phone !== undefined && (changes.phone || null) !== user.phone) patch.phone = changes.phone || null;
    if (changes.email !== undefined && changes.email.toLowerCase() !== user.email.toLowerCase()) {
      const email = changes.email.toLowerCase();
      if (await this.users.emailTaken(EMAILS, email, user.id)) throw emailTaken();
      patch.email = email;
      patch.emailVerifiedAt = null;
    }
    const keys = Object.keys(patch);
    if (!keys.length) return [];
    try {
      await this.users.update(who, user.id, patch);
    } catch (e) {
      if (isUniqueViolation(e)) throw emailTaken();
      throw e;
    }
    return keys.map((k) => (k === 'emailVerifiedAt' ? 'email_verified' : k));
  }

  /** Activates or deactivates a user of the scope's company (the access guard reads it on every request). */
  setStatus(scope: Scope, userId: string, status: UserStatus): Promise<void> {
    return this.users.update(scope, userId, { status });
  }

  /** Display names of the scope's company's users by id (missing ids are left out). One statement for all of them. */
  async names(scope: Scope, ids: string[]): Promise<Map<string, string>> {
    if (!ids.length) return new Map();
    return this.users.names(scope, ids);
  }

  /** Reports (admin dashboard): users (of the companies `reach` covers) per type and status, and those created in [from, to] (UTC dates). One statement. */
  async typeCounts(reach: PlatformReach, from: string, to: string): Promise<{ type: UserType; status: UserStatus; total: number; created: number }[]> {
    const rows = await this.users.typeCounts(reach, from, to);
    return rows.map((r) => ({ type: r.type, status: r.status, total: Number(r.total), created: Number(r.created) }));
  }

  /** The ids of a company's active company users (recipients of what concerns the company: chats, notifications). */
  companyUserIds(scope: Scope): Promise<string[]> {
    return this.users.companyUserIds(scope);
  }

  /** The user's company id, with the user row locked for the rest of the caller's unit of work. */
  lockCompanyOf(userId: string): Promise<string | null> {
    return this.users.lockCompanyOf(BY_ID, userId);
  }

  /** Makes the user (of no company yet: by id alone) a member of a company (a company user creating its company). */
  assignCompany(userId: string, company: Scope): Promise<void> {
    return this.users.update(BY_ID, userId, { companyId: company.companyId });
  }

  /** The id, type and password hash of the user with this e-mail (any case), for login; null when none. */
  async credentialsByEmail(email: string): Promise<UserCredentials | null> {
    const row = await this.users.credentialsByEmail(BY_EMAIL, email);
    return row ? { id: row.id, type: row.type, passwordHash: row.password_hash } : null;
  }

  /** The user's password hash (null when the user has none or is gone). */
  passwordHashOf(userId: string): Promise<string | null> {
    return this.users.passwordHashOf(BY_ID, userId);
  }

  /** Whether a user has this e-mail (any case). */
  existsByEmail(email: string): Promise<boolean> {
    return this.users.existsByEmail(BY_EMAIL, email);
  }

  /** Whether the user exists. */
  exists(userId: string): Promise<boolean> {
    return this.users.exists(BY_ID, userId);
  }

  /** The id of the user with this e-mail (any case), row locked for the rest of the caller's unit of work; null when none. */
  lockByEmail(email: string): Promise<string | null> {
    return this.users.lockByEmail(BY_EMAIL, email);
  }

  /** Marks the e-mail address (any case) verified, keeping an earlier verification time. */
  markEmailVerified(email: string): Promise<void> {
    return this.users.markEmailVerified(BY_EMAIL, email);
  }

  /**
   * Sets the user's password hash. `verifiesEmail` (a reset by mailed code proves the address) also
   * marks the e-mail verified, keeping an earlier verification time.
   */
  setPassword(userId: string, passwordHash: string, opts?: { verifiesEmail?: boolean }): Promise<void> {
    return this.users.setPassword(BY_ID, userId, passwordHash, !!opts?.verifiesEmail);
  }

  /** The caller's profile (`/auth/me`, login `user`); the company summary comes from the companies module. */
  async profile(userId: string): Promise<UserDto> {
    const row = await this.users.profile(BY_ID, userId, this.companies.sql('u.company_id'));
    if (!row) throw ApiError.notFound('User');
    return this.profileOf(row);
  }

  /**
   * The profile's further columns of the users row `alias` (named `profile_*`): with the user's id, type,
   * name, email, status and company_id, what `profileOf` renders. For a statement that reads the user
   * anyway: the caller's query of `/auth/me` (this module registers it with the ActorResolver at init).
   */
  profileColumnsSql(alias: string): string {
    return UserRepository.profileColumns(alias, this.companies.sql(`${alias}.company_id`));
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
