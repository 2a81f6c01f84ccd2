import { Injectable } from '@nestjs/common';
import { GenerateSql, SQL_SAMPLE } from '../../database/generate-sql';
import { ModuleRepository } from '../../database/repository';
import { AuthToken } from './auth-token.entity';

/** A revoked token: its id and its user (null for an administrator's). */
export interface RevokedRow {
  jti: string;
  user_id: string | null;
}

/** The rows of an `UPDATE … RETURNING` (TypeORM answers `[rows, count]` for an UPDATE). */
const updatedRows = (result: unknown): RevokedRow[] => (Array.isArray(result) && Array.isArray(result[0]) ? (result[0] as RevokedRow[]) : ((result as RevokedRow[]) ?? []));

/** The `auth_tokens` table (one row per issued JWT, by its `jti`). Runs in the open unit of work, else on the pool. */
@Injectable()
export class AuthTokenRepository extends ModuleRepository {
  /** Records an issued token. */
  @GenerateSql({ params: [{ jti: SQL_SAMPLE.id, userId: SQL_SAMPLE.actorId, adminId: null, expiresAt: SQL_SAMPLE.at }] })
  async insert(values: Pick<AuthToken, 'jti' | 'userId' | 'adminId' | 'expiresAt'>): Promise<void> {
    await this.m.insert(AuthToken, values);
  }

  /** Revokes a live token; whether it was live (of two racing revocations only one wins). */
  @GenerateSql({ params: [SQL_SAMPLE.id] })
  async revokeLive(jti: string): Promise<boolean> {
    const revoked = await this.m
      .createQueryBuilder()
      .update(AuthToken)
      .set({ revokedAt: () => 'now()' })
      .where('jti = :jti AND revoked_at IS NULL', { jti })
      .execute();
    return !!revoked.affected;
  }

  /** Revokes a live token; the revoked rows (none or one). */
  @GenerateSql({ params: [SQL_SAMPLE.id] })
  revoke(jti: string): Promise<RevokedRow[]> {
    return this.m.query(`UPDATE auth_tokens SET revoked_at = now() WHERE jti = $1 AND revoked_at IS NULL RETURNING jti, user_id`, [jti]).then(updatedRows);
  }

  /** Revokes every live token of a user or an administrator except `keepJti`; the revoked rows. */
  @GenerateSql({ name: 'user', params: [{ id: SQL_SAMPLE.actorId, kind: 'user' }, SQL_SAMPLE.id] }, { name: 'admin', params: [{ id: SQL_SAMPLE.actorId, kind: 'admin' }, null] })
  revokeAllOf(subject: { id: string; kind: 'user' | 'admin' }, keepJti: string | null): Promise<RevokedRow[]> {
    const column = subject.kind === 'admin' ? 'admin_id' : 'user_id';
    return this.m
      .query(`UPDATE auth_tokens SET revoked_at = now() WHERE ${column} = $1 AND revoked_at IS NULL AND ($2::uuid IS NULL OR jti <> $2::uuid) RETURNING jti, user_id`, [subject.id, keepJti])
      .then(updatedRows);
  }
}
