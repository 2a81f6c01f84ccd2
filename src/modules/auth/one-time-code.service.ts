import { Injectable } from '@nestjs/common';
import { AppConfig } from '../../config/app-config';
import { ApiError } from '../../common/http/api-error';
import { hashCode, newOneTimeCode } from '../../common/security/passwords';
import { UnitOfWork } from '../../database/unit-of-work';
import { CodeAudience, CodePurpose } from './one-time-code.entity';
import { OneTimeCodeRepository } from './one-time-code.repository';

export const CODE_TTL_MINUTES = 10;
export const CODE_MAX_TRIES = 5;

/** 6-digit codes: hashed, 10 minutes, 5 tries; a new code replaces the previous one. */
@Injectable()
export class OneTimeCodeService {
  constructor(
    private readonly uow: UnitOfWork,
    private readonly codes: OneTimeCodeRepository,
    private readonly config: AppConfig,
  ) {}

  private hash(audience: CodeAudience, purpose: CodePurpose, email: string, code: string) {
    return hashCode(this.config.jwtSecret, `${audience}:${purpose}:${email.toLowerCase()}`, code);
  }

  /** A new code for the address (in the open unit of work, if any). */
  async issue(audience: CodeAudience, email: string, purpose: CodePurpose): Promise<string> {
    const code = newOneTimeCode();
    await this.codes.consumeLive(audience, email, purpose);
    await this.codes.insert({
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
   * request fails); after 5 tries the code is dead. Runs `then` inside the same unit of work (repositories
   * join it by themselves).
   */
  async verify<T>(
    audience: CodeAudience,
    email: string,
    purpose: CodePurpose,
    code: string,
    consume: boolean,
    then: () => Promise<T>,
  ): Promise<T> {
    type Failure = { error: 'CODE_EXPIRED' | 'CODE_EXHAUSTED' | 'INVALID_CODE'; message: string };
    const outcome: { value: T } | Failure = await this.uow.transaction(async () => {
      const row = await this.codes.lockLatestLive(audience, email, purpose);
      if (!row || new Date(row.expires_at).getTime() < Date.now()) {
        return { error: 'CODE_EXPIRED', message: 'The code has expired or was never sent; request a new one.' } as Failure;
      }
      if (row.attempts >= CODE_MAX_TRIES) return { error: 'CODE_EXHAUSTED', message: 'Too many wrong tries; request a new code.' } as Failure;
      if (row.code_hash !== this.hash(audience, purpose, email, code)) {
        // The failed try is committed: the transaction ends normally and the caller gets the error.
        await this.codes.countTry(row.id);
        return { error: 'INVALID_CODE', message: `The code is not valid (${CODE_MAX_TRIES - row.attempts - 1} tries left).` } as Failure;
      }
      if (consume) await this.codes.consume(row.id);
      return { value: await then() };
    });
    if ('error' in outcome) throw ApiError.unprocessable(outcome.error, outcome.message, { code: [outcome.message] });
    return outcome.value;
  }
}
