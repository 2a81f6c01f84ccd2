import { Injectable } from '@nestjs/common';
import { DataSource, EntityManager } from 'typeorm';
import { AppConfig } from '../../config/app-config';
import { ApiError } from '../../common/http/api-error';
import { hashCode, newOneTimeCode } from '../../common/security/passwords';
import { CodeAudience, CodePurpose, OneTimeCode } from './one-time-code.entity';
import { runUnit } from '../../database/unit-of-work';

export const CODE_TTL_MINUTES = 10;
export const CODE_MAX_TRIES = 5;

/** 6-digit codes: hashed, 10 minutes, 5 tries; a new code replaces the previous one. */
@Injectable()
export class OneTimeCodeService {
  constructor(
    private readonly ds: DataSource,
    private readonly config: AppConfig,
  ) {}

  private hash(audience: CodeAudience, purpose: CodePurpose, email: string, code: string) {
    return hashCode(this.config.jwtSecret, `${audience}:${purpose}:${email.toLowerCase()}`, code);
  }

  async issue(audience: CodeAudience, email: string, purpose: CodePurpose, manager: EntityManager = this.ds.manager): Promise<string> {
    const code = newOneTimeCode();
    await manager.query(
      `UPDATE one_time_codes SET consumed_at = now() WHERE audience = $1 AND lower(email) = lower($2) AND purpose = $3 AND consumed_at IS NULL`,
      [audience, email, purpose],
    );
    await manager.insert(OneTimeCode, {
      audience,
      email: email.toLowerCase(),
      purpose,
      codeHash: this.hash(audience, purpose, email, code),
      expiresAt: new Date(Date.now() + CODE_TTL_MINUTES * 60_000),
    });
    return code;
  }

  /**
   * Checks a code; with `consume` it is used up. A wrong code counts a try (kept even though the
   * request fails); after 5 tries the code is dead. Runs `then` inside the same transaction.
   */
  async verify<T>(
    audience: CodeAudience,
    email: string,
    purpose: CodePurpose,
    code: string,
    consume: boolean,
    then: (m: EntityManager) => Promise<T>,
  ): Promise<T> {
    type Failure = { error: 'CODE_EXPIRED' | 'CODE_EXHAUSTED' | 'INVALID_CODE'; message: string };
    const outcome: { value: T } | Failure = await runUnit(this.ds, async (m) => {
      const [row] = await m.query<{ id: string; code_hash: string; attempts: number; expires_at: Date }[]>(
        `SELECT id, code_hash, attempts, expires_at FROM one_time_codes
          WHERE audience = $1 AND lower(email) = lower($2) AND purpose = $3 AND consumed_at IS NULL
          ORDER BY created_at DESC LIMIT 1 FOR UPDATE`,
        [audience, email, purpose],
      );
      if (!row || new Date(row.expires_at).getTime() < Date.now()) {
        return { error: 'CODE_EXPIRED', message: 'The code has expired or was never sent; request a new one.' } as Failure;
      }
      if (row.attempts >= CODE_MAX_TRIES) return { error: 'CODE_EXHAUSTED', message: 'Too many wrong tries; request a new code.' } as Failure;
      if (row.code_hash !== this.hash(audience, purpose, email, code)) {
        // The failed try is committed: the transaction ends normally and the caller gets the error.
        await m.query(`UPDATE one_time_codes SET attempts = attempts + 1 WHERE id = $1`, [row.id]);
        return { error: 'INVALID_CODE', message: `The code is not valid (${CODE_MAX_TRIES - row.attempts - 1} tries left).` } as Failure;
      }
      if (consume) await m.query(`UPDATE one_time_codes SET consumed_at = now() WHERE id = $1`, [row.id]);
      return { value: await then(m) };
    });
    if ('error' in outcome) throw ApiError.unprocessable(outcome.error, outcome.message, { code: [outcome.message] });
    return outcome.value;
  }
}
