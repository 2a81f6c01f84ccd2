import { Injectable } from '@nestjs/common';
import { JwtService } from '@nestjs/jwt';
import { randomUUID } from 'node:crypto';
import { DataSource, EntityManager } from 'typeorm';
import type { Actor } from '../../common/access/actor';
import type { TokenClaims } from '../../common/access/jwt.strategy';
import { ApiError } from '../../common/http/api-error';
import { UsersService } from '../users';
import { recordEvents } from '../../common/outbox/outbox';
import { AuthToken } from './auth-token.entity';
import { runUnit } from '../../database/unit-of-work';

/** 30 days (seed §5: one month from issue). */
export const TOKEN_TTL_SECONDS = 30 * 24 * 3600;
/** How long after expiry a token can still be exchanged at refresh-token (domain.md §2). */
export const REFRESH_GRACE_SECONDS = 14 * 24 * 3600;

export interface IssuedToken {
  token: string;
  token_type: 'bearer';
  expires_in: number;
}

/** Issues, refreshes and revokes bearer tokens; each has a unique id kept in `auth_tokens`. */
@Injectable()
export class TokenService {
  constructor(
    private readonly jwt: JwtService,
    private readonly ds: DataSource,
    private readonly users: UsersService,
  ) {}

  async issue(subject: { id: string; type: Actor['type'] }, manager: EntityManager = this.ds.manager): Promise<IssuedToken> {
    const jti = randomUUID();
    const now = Math.floor(Date.now() / 1000);
    const exp = now + TOKEN_TTL_SECONDS;
    await manager.insert(AuthToken, {
      jti,
      userId: subject.type === 'admin' ? null : subject.id,
      adminId: subject.type === 'admin' ? subject.id : null,
      expiresAt: new Date(exp * 1000),
    });
    const token = await this.jwt.signAsync({ sub: subject.id, typ: subject.type, jti, iat: now, exp } satisfies TokenClaims);
    return { token, token_type: 'bearer', expires_in: TOKEN_TTL_SECONDS };
  }

  /**
   * Exchanges a token (even expired, up to 14 days past expiry) for a new one and revokes the old.
   * `audience` keeps admin and user tokens apart.
   */
  async refresh(token: string | undefined, audience: 'user' | 'admin'): Promise<IssuedToken> {
    if (!token) throw ApiError.unauthorized('Send the current token as a bearer token or as `token`.', 'UNAUTHENTICATED');
    let claims: TokenClaims;
    try {
      claims = await this.jwt.verifyAsync<TokenClaims>(token, { ignoreExpiration: true, algorithms: ['HS256'] });
    } catch {
      throw ApiError.unauthorized('Invalid token.', 'INVALID_TOKEN');
    }
    if ((claims.typ === 'admin') !== (audience === 'admin')) throw ApiError.unauthorized('Invalid token.', 'INVALID_TOKEN');
    if (claims.exp + REFRESH_GRACE_SECONDS < Date.now() / 1000) {
      throw ApiError.unauthorized('Token is too old to refresh; log in again.', 'TOKEN_EXPIRED');
    }
    return runUnit(this.ds, async (m) => {
      // Revoke atomically: of two refreshes racing with one token, only one wins.
      const revoked = await m
        .createQueryBuilder()
        .update(AuthToken)
        .set({ revokedAt: () => 'now()' })
        .where('jti = :jti AND revoked_at IS NULL', { jti: claims.jti })
        .execute();
      if (!revoked.affected) throw ApiError.unauthorized('Token has been revoked.', 'TOKEN_REVOKED');
      if (claims.typ !== 'admin') {
        if (!(await this.users.exists(claims.sub, m))) throw ApiError.unauthorized('Invalid token.', 'INVALID_TOKEN');
        await recordRevocations(m, [{ jti: claims.jti, user_id: claims.sub }]);
      }
      return this.issue({ id: claims.sub, type: claims.typ }, m);
    });
  }

  async revoke(jti: string): Promise<void> {
    await runUnit(this.ds, async (m) => {
      const rows: RevokedRow[] = await m.query(`UPDATE auth_tokens SET revoked_at = now() WHERE jti = $1 AND revoked_at IS NULL RETURNING jti, user_id`, [jti]).then(updatedRows);
      await recordRevocations(m, rows);
    });
  }

  /** Revokes every token of a user or admin except `keepJti` (after a password change or reset). */
  async revokeAllOf(subject: { id: string; kind: 'user' | 'admin' }, keepJti: string | null, manager: EntityManager = this.ds.manager): Promise<void> {
    const column = subject.kind === 'admin' ? 'admin_id' : 'user_id';
    const rows: RevokedRow[] = await manager
      .query(`UPDATE auth_tokens SET revoked_at = now() WHERE ${column} = $1 AND revoked_at IS NULL AND ($2::uuid IS NULL OR jti <> $2::uuid) RETURNING jti, user_id`, [subject.id, keepJti])
      .then(updatedRows);
    await recordRevocations(manager, rows);
  }
}

interface RevokedRow {
  jti: string;
  user_id: string | null;
}

/** The rows of an `UPDATE … RETURNING` (TypeORM answers `[rows, count]` for an UPDATE). */
const updatedRows = (result: unknown): RevokedRow[] => (Array.isArray(result) && Array.isArray(result[0]) ? (result[0] as RevokedRow[]) : ((result as RevokedRow[]) ?? []));

/**
 * `auth.token_revoked` for each revoked user token, in the revoking transaction (live push disconnects
 * the token's sockets; README "Notifications and live push"). Admin tokens have no sockets.
 */
async function recordRevocations(m: EntityManager, rows: readonly RevokedRow[]): Promise<void> {
  const events = rows
    .filter((r): r is RevokedRow & { user_id: string } => !!r.user_id)
    .map((r) => ({ type: 'auth.token_revoked' as const, aggregateType: 'auth_token', aggregateId: r.jti, actorId: r.user_id, payload: { jti: r.jti, user_id: r.user_id } }));
  if (events.length) await recordEvents(m, ...events);
}
