import { Injectable } from '@nestjs/common';
import { JwtService } from '@nestjs/jwt';
import { randomUUID } from 'node:crypto';
import type { Actor } from '../../common/access/actor';
import type { TokenClaims } from '../../common/access/jwt.strategy';
import { ApiError } from '../../common/http/api-error';
import { UnitOfWork } from '../../database/unit-of-work';
import { UsersService } from '../users';
import { AuthTokenRepository, type RevokedRow } from './auth-token.repository';

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
    private readonly uow: UnitOfWork,
    private readonly tokens: AuthTokenRepository,
    private readonly users: UsersService,
  ) {}

  /** Issues a token (in the open unit of work, if any). */
  async issue(subject: { id: string; type: Actor['type'] }): Promise<IssuedToken> {
    const jti = randomUUID();
    const now = Math.floor(Date.now() / 1000);
    const exp = now + TOKEN_TTL_SECONDS;
    await this.tokens.insert({
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
    return this.uow.transaction(async () => {
      // Revoke atomically: of two refreshes racing with one token, only one wins.
      if (!(await this.tokens.revokeLive(claims.jti))) throw ApiError.unauthorized('Token has been revoked.', 'TOKEN_REVOKED');
      if (claims.typ !== 'admin') {
        if (!(await this.users.exists(claims.sub))) throw ApiError.unauthorized('Invalid token.', 'INVALID_TOKEN');
        await this.recordRevocations([{ jti: claims.jti, user_id: claims.sub }]);
      }
      return this.issue({ id: claims.sub, type: claims.typ });
    });
  }

  async revoke(jti: string): Promise<void> {
    await this.uow.transaction(async () => {
      await this.recordRevocations(await this.tokens.revoke(jti));
    });
  }

  /**
   * Revokes every token of a user or admin except `keepJti` (after a password change or reset), in the
   * open unit of work.
   */
  async revokeAllOf(subject: { id: string; kind: 'user' | 'admin' }, keepJti: string | null): Promise<void> {
    await this.recordRevocations(await this.tokens.revokeAllOf(subject, keepJti));
  }

  /**
   * `auth.token_revoked` for each revoked user token, in the revoking transaction (live push disconnects
   * the token's sockets; README "Notifications and live push"). Admin tokens have no sockets.
   */
  private async recordRevocations(rows: readonly RevokedRow[]): Promise<void> {
    const events = rows
      .filter((r): r is RevokedRow & { user_id: string } => !!r.user_id)
      .map((r) => ({ type: 'auth.token_revoked' as const, aggregateType: 'auth_token', aggregateId: r.jti, actorId: r.user_id, payload: { jti: r.jti, user_id: r.user_id } }));
    if (events.length) await this.tokens.recordEvents(...events);
  }
}
