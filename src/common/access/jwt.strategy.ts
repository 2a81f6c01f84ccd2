import { Injectable } from '@nestjs/common';
import { PassportStrategy } from '@nestjs/passport';
import { createSecretKey, type KeyObject } from 'node:crypto';
import { ExtractJwt, Strategy } from 'passport-jwt';
import { DataSource } from 'typeorm';
import { asJsonRow, jsonRowOf, preparedQuery } from '../../database/prepared-query';
import { AppConfig } from '../../config/app-config';
import { BoundedMap } from '../bounded-map';
import { ApiError } from '../http/api-error';
import { isUuid } from '../http/id-param';
import { Actor } from './actor';
import { CallerChanges } from './caller-changes';

/**
 * The HS256 secret as a key object, for signing (`JwtModule`) and verifying (`JwtStrategy`): given a
 * string, jsonwebtoken first tries to parse it as a PEM public key on every call (`createPublicKey`
 * throwing), which cost a fifth of the CPU per request. Same bytes (UTF-8) as the string form, so
 * tokens are unchanged.
 */
export function jwtSecretKey(secret: string): KeyObject {
  return createSecretKey(Buffer.from(secret, 'utf8'));
}

export interface TokenClaims {
  sub: string;
  /** Actor type: company | customer | driver | admin. */
  typ: Actor['type'];
  jti: string;
  iat: number;
  exp: number;
}

/** How many verified tokens `JwtStrategy` keeps (about 300 bytes each). */
const VERIFIED_TOKENS_KEPT = 10_000;
const bearerToken = ExtractJwt.fromAuthHeaderAsBearerToken();

/**
 * passport-jwt verifies the bearer JWT (signature, expiry) and hands over its claims. Passport keeps
 * strategies in a process-wide registry; the strategy's only state is its memory of verified tokens,
 * which its own application's AccessGuard reads (a token verified under another application's key is
 * never in it). The AccessGuard resolves the caller with its own application's ActorResolver.
 */
@Injectable()
export class JwtStrategy extends PassportStrategy(Strategy, 'jwt') {
  /**
   * Tokens whose signature this strategy has verified, with their checked claims, until they expire: the
   * same bytes under the same key always verify the same way, so a token seen before skips the HMAC
   * and JSON parsing (4 % of the CPU of a short request; docs/performance.md) and passport altogether
   * (`knownClaims`, which the AccessGuard asks before it calls passport). Only the signature check
   * is kept here: revocation, the user and the company are the `ActorResolver`'s (read, or kept until a
   * change to them commits: `CallerChanges`). Bounded: the oldest entry goes when it is full.
   */
  private readonly verified = new BoundedMap<string, TokenClaims>(VERIFIED_TOKENS_KEPT);

  constructor(config: AppConfig) {
    super({
      jwtFromRequest: bearerToken,
      // passport-jwt hands secretOrKey to jsonwebtoken.verify unchanged, which takes a KeyObject;
      // its typings only say string | Buffer.
      secretOrKey: jwtSecretKey(config.jwtSecret) as unknown as Buffer,
      algorithms: ['HS256'],
      ignoreExpiration: false,
      passReqToCallback: true,
    });
  }

  /**
   * The claims of the request's bearer token when this strategy has verified it before and it has not
   * expired since; undefined otherwise (no token, never seen, or expired: passport-jwt then decides, with
   * its precise 401). The AccessGuard asks this first and hands only the rest to passport, whose
   * per-request context (a middleware, a copy of the strategy and five callbacks, about 16 % of what
   * `/auth/me` allocated) a known token does not need (docs/performance.md).
   */
  knownClaims(req: Parameters<typeof bearerToken>[0]): TokenClaims | undefined {
    const token = bearerToken(req);
    const claims = token ? this.verified.get(token) : undefined;
    if (!claims) return undefined;
    // jsonwebtoken's own rule: expired from the second of `exp` on.
    if (Math.floor(Date.now() / 1000) < claims.exp) return claims;
    this.verified.delete(token!);
    return undefined;
  }

  validate(req: Parameters<typeof bearerToken>[0], claims: TokenClaims): TokenClaims {
    if (!isUuid(claims.jti) || !isUuid(claims.sub)) throw ApiError.unauthorized('Invalid token.', 'INVALID_TOKEN');
    const token = bearerToken(req);
    if (token && typeof claims.exp === 'number') {
      this.verified.set(token, claims);
    }
    return claims;
  }
}


/** A row of the user-token query: the user, its company's status (null without a live company) and the token's expiry. */
interface UserTokenRow {
  id: string;
  type: Exclude<Actor['type'], 'admin'>;
  name: string;
  email: string;
  status: Actor['status'];
  company_id: string | null;
  company_status: 'active' | 'inactive' | null;
  company_timezone: string | null;
  has_role_record: boolean;
  /** ISO 8601 (the row comes as JSON). */
  expires_at: string;
}

/** What the caller's query adds on routes that declare `@WithCallerProfile()` (see `ActorResolver.registerProfile`). */
export interface CallerProfileSource {
  /** SQL select items over the user row `u`, e.g. `u.phone AS profile_phone`; read at the first request (after every module's init). */
  columns(): string;
  /** The profile from the row (the caller's columns and these). */
  map(row: Record<string, unknown>): unknown;
}

/**
 * The caller's statement, in parts: each is SQL of the module that owns its table, registered at its
 * init (`ActorResolver#registerCallerSql`), so that this layer-0 file names no module's table (issue #24)
 * while the caller stays one statement per request. Aliases: `t` the token, `u` the user, `a` the
 * administrator, `co` the company; `$1` is the token id (jti), `$2` the subject (user or administrator id).
 */
export interface CallerSql {
  /** auth: the token table as `t` (with `t.expires_at`), and the live token's conditions for a user's and an administrator's token. */
  token: { from: string; userWhere: string; adminWhere: string };
  /** users: the user as `u` joined to `t`; select items id, type, name, email, status, company_id. */
  user: { join: string; columns: string };
  /** admin: the administrator as `a` joined to `t`; select items id, name, email. */
  admin: { join: string; columns: string };
  /** companies: the user's live company as `co`; select items company_status, company_timezone; `roleRecord`: a company user's (the company has its owner). */
  company: { join: string; columns: string; roleRecord: string };
  /**
   * customers: the customer record joined to `u`; `roleRecord`: a customer's; `flags`: name → an SQL boolean
   * over the joined record, set in `Actor#flags` when true (for the module's own rules, read in the caller's statement).
   */
  customer: { join: string; roleRecord: string; flags?: Record<string, string> };
  /** drivers: the driver record joined to `u`; `roleRecord`: a driver's. */
  driver: { join: string; roleRecord: string };
}

/** Whether a driver has an open working day (attendance registers it): the `checkedIn` access rule. */
export type CheckedInCheck = (driverId: string) => Promise<boolean>;

/**
 * The caller's query of a user's token: the token row (revocation), the user, the company's status and time zone, the role record (and `extra` select items).
 * It runs on every request: its row comes as one JSON value (`asJsonRow`; `new Date` reads its timestamps).
 */
const userTokenSql = (p: CallerSql, extra?: string) =>
  asJsonRow(`SELECT ${p.user.columns}, ${p.company.columns},${flagColumns(p)}
              (CASE u.type WHEN 'company' THEN ${p.company.roleRecord}
                           WHEN 'customer' THEN ${p.customer.roleRecord}
                           WHEN 'driver' THEN ${p.driver.roleRecord} ELSE false END) AS has_role_record,
              t.expires_at${extra ? `,
              ${extra}` : ''}
         FROM ${p.token.from}
         ${p.user.join}
         ${p.company.join}
         ${p.customer.join}
         ${p.driver.join}
        WHERE ${p.token.userWhere}`);

/** The flags' select items (`(expr) AS flag_<name>`), each followed by a comma. */
const flagColumns = (p: CallerSql) =>
  Object.entries(p.customer.flags ?? {})
    .map(([name, expr]) => `\n              (${expr}) IS TRUE AS flag_${name},`)
    .join('');

const adminTokenSql = (p: CallerSql) => asJsonRow(`SELECT ${p.admin.columns}, t.expires_at FROM ${p.token.from} ${p.admin.join} WHERE ${p.token.adminWhere}`);

/** An actor's flags when none is set (one frozen array for every caller). */
const NO_FLAGS: readonly string[] = Object.freeze([]);

/**
 * Resolves the caller of a verified token in one query (a prepared statement): the token row
 * (revocation), the user or admin, the company's status and time zone, and the role record. A caller
 * read before is taken from `CallerChanges`' memory once its sync shows that no change to those rows has
 * committed since (a logout, a revocation or a deactivation takes effect at once on every instance).
 */
@Injectable()
export class ActorResolver {
  private flagNames?: string[];
  constructor(
    private readonly ds: DataSource,
    private readonly changes: CallerChanges,
  ) {}

  async resolve(claims: TokenClaims): Promise<Actor> {
    const memory = this.changes.memory;
    // A kept caller holds if no change to its rows committed before this request: the sync tells.
    if (memory.has(claims.jti) && (await this.changes.synced())) {
      const kept = memory.get(claims);
      if (kept) return kept;
    }
    // Taken before the read: a change noticed while the statement runs keeps its answer out of the memory.
    const generation = memory.generation;
    const read = claims.typ === 'admin' ? await this.admin(claims) : await this.user(claims);
    if (!read) throw ApiError.unauthorized('Token has been revoked.', 'TOKEN_REVOKED');
    if (this.changes.live) memory.keep(read.actor, read.companyId, generation);
    return read.actor;
  }

  /**
   * The caller and, in the same statement, what the registered profile source adds (`/auth/me`: the
   * profile, which would otherwise be a second statement after the caller's). Without a source, or for
   * an administrator's token, `profile` is undefined and the route reads it itself.
   */
  async resolveWithProfile(claims: TokenClaims): Promise<{ actor: Actor; profile: unknown }> {
    if (claims.typ === 'admin' || !this.profileSource) return { actor: await this.resolve(claims), profile: undefined };
    const source = this.profileSource;
    const row = await this.userRow(claims, 'actor_user_profile', (this.profileColumns ??= source.columns()));
    const actor = row && this.actorOf(row, claims);
    if (!actor) throw ApiError.unauthorized('Token has been revoked.', 'TOKEN_REVOKED');
    return { actor, profile: source.map(row as unknown as Record<string, unknown>) };
  }

  /**
   * Registers what the caller's query adds on routes that declare `@WithCallerProfile()`: SQL select
   * items over the user row `u` (named apart from the caller's columns: id, type, name, email, status,
   * company_id, company_status, company_timezone, has_role_record, expires_at) and the rendering of a row.
   * The module that owns the profile registers it (once).
   */
  registerProfile(source: CallerProfileSource): void {
    if (this.profileSource) throw new Error('A caller profile source is registered twice');
    this.profileSource = source;
  }

  private profileSource: CallerProfileSource | null = null;
  private profileColumns: string | undefined;

  /**
   * Registers a part of the caller's statement (`CallerSql`): the module that owns the table registers it
   * at its init, once. The statement is put together at the first request, when every part is in.
   */
  registerCallerSql<K extends keyof CallerSql>(slot: K, part: CallerSql[K]): void {
    if (this.parts[slot]) throw new Error(`The caller's SQL part '${slot}' is registered twice`);
    this.parts[slot] = part;
  }

  /** Registers the `checkedIn` rule's check (the attendance module, once). */
  registerCheckedIn(check: CheckedInCheck): void {
    if (this.checkedInCheck) throw new Error('The checked-in check is registered twice');
    this.checkedInCheck = check;
  }

  /** Whether the driver has an open working day (the `checkedIn` access rule). */
  checkedIn(driverId: string): Promise<boolean> {
    if (!this.checkedInCheck) throw new Error('No checked-in check is registered (the attendance module registers it)');
    return this.checkedInCheck(driverId);
  }

  private readonly parts: Partial<CallerSql> = {};
  private checkedInCheck: CheckedInCheck | null = null;
  private readonly texts = new Map<string, string>();

  /** The caller's statement by name, put together once from the registered parts. */
  private text(name: string, build: (parts: CallerSql) => string): string {
    let text = this.texts.get(name);
    if (text === undefined) {
      const missing = (['token', 'user', 'admin', 'company', 'customer', 'driver'] as const).filter((k) => !this.parts[k]);
      if (missing.length) throw new Error(`The caller's SQL misses the part(s) ${missing.join(', ')} (registered by their modules at init)`);
      text = build(this.parts as CallerSql);
      this.texts.set(name, text);
    }
    return text;
  }

  private userRow(c: TokenClaims, name: string, extra?: string): Promise<UserTokenRow | undefined> {
    return preparedQuery<{ json_row: unknown }>(this.ds, name, this.text(name, (p) => userTokenSql(p, extra)), [c.jti, c.sub]).then((rows) => jsonRowOf<UserTokenRow>(rows));
  }

  private actorOf(row: UserTokenRow, c: TokenClaims): Actor | null {
    if (row.type !== c.typ) return null;
    return {
      kind: 'user',
      id: row.id,
      type: row.type,
      name: row.name,
      email: row.email,
      status: row.status,
      companyId: row.company_status ? row.company_id : null,
      companyStatus: row.company_status ?? null,
      companyTimezone: row.company_status ? row.company_timezone || 'UTC' : null,
      hasRoleRecord: row.has_role_record === true,
      jti: c.jti,
      tokenExpiresAt: new Date(row.expires_at),
      flags: this.flagsOf(row),
    };
  }

  /** The flags set in the caller's row (`flag_<name>` columns). */
  private flagsOf(row: UserTokenRow): readonly string[] {
    const names = (this.flagNames ??= Object.keys(this.parts.customer?.flags ?? {}));
    return names.length ? names.filter((n) => (row as unknown as Record<string, unknown>)[`flag_${n}`] === true) : NO_FLAGS;
  }

  /** The caller of a user's token, with its user row's company (what a company's change notice names). */
  private async user(c: TokenClaims): Promise<{ actor: Actor; companyId: string | null } | null> {
    const row = await this.userRow(c, 'actor_user');
    const actor = row && this.actorOf(row, c);
    return actor ? { actor, companyId: row!.company_id } : null;
  }

  private async admin(c: TokenClaims): Promise<{ actor: Actor; companyId: null } | null> {
    const row = jsonRowOf<{ id: string; name: string; email: string; expires_at: string }>(await preparedQuery<{ json_row: unknown }>(this.ds, 'actor_admin', this.text('actor_admin', adminTokenSql), [c.jti, c.sub]));
    if (!row) return null;
    const actor: Actor = {
      kind: 'admin',
      id: row.id,
      type: 'admin',
      name: row.name,
      email: row.email,
      status: 'active',
      companyId: null,
      companyStatus: null,
      companyTimezone: null,
      hasRoleRecord: true,
      jti: c.jti,
      tokenExpiresAt: new Date(row.expires_at),
    };
    return { actor, companyId: null };
  }
}
