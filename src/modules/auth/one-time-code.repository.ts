import { Injectable } from '@nestjs/common';
import { GenerateSql, SQL_SAMPLE } from '../../database/generate-sql';
import { ModuleRepository } from '../../database/repository';
import { CodeAudience, CodePurpose, OneTimeCode } from './one-time-code.entity';

/** The live code of an address, as verification reads it. */
export interface LiveCodeRow {
  id: string;
  code_hash: string;
  attempts: number;
  expires_at: Date;
}

/** The `one_time_codes` table. Runs in the open unit of work, else on the pool. */
@Injectable()
export class OneTimeCodeRepository extends ModuleRepository {
  /** Uses up the address's live codes for the purpose (a new code replaces them). */
  @GenerateSql({ params: ['user', 'someone@example.com', 'verify_email'] })
  async consumeLive(audience: CodeAudience, email: string, purpose: CodePurpose): Promise<void> {
    await this.m.query(`UPDATE one_time_codes SET consumed_at = now() WHERE audience = $1 AND lower(email) = lower($2) AND purpose = $3 AND consumed_at IS NULL`, [
      audience,
      email,
      purpose,
    ]);
  }

  @GenerateSql({ params: [{ audience: 'user', email: 'someone@example.com', purpose: 'verify_email', codeHash: 'hash', expiresAt: SQL_SAMPLE.at }] })
  async insert(values: Pick<OneTimeCode, 'audience' | 'email' | 'purpose' | 'codeHash' | 'expiresAt'>): Promise<void> {
    await this.m.insert(OneTimeCode, values);
  }

  /** The address's newest live code for the purpose, locked (FOR UPDATE; inside a unit). */
  @GenerateSql({ params: ['user', 'someone@example.com', 'reset_password'] })
  async lockLatestLive(audience: CodeAudience, email: string, purpose: CodePurpose): Promise<LiveCodeRow | undefined> {
    const [row] = await this.locked.query<LiveCodeRow[]>(
      `SELECT id, code_hash, attempts, expires_at FROM one_time_codes
          WHERE audience = $1 AND lower(email) = lower($2) AND purpose = $3 AND consumed_at IS NULL
          ORDER BY created_at DESC LIMIT 1 FOR UPDATE`,
      [audience, email, purpose],
    );
    return row;
  }

  /** Counts a wrong try. */
  async countTry(id: string): Promise<void> {
    await this.m.query(`UPDATE one_time_codes SET attempts = attempts + 1 WHERE id = $1`, [id]);
  }

  /** Uses the code up. */
  async consume(id: string): Promise<void> {
    await this.m.query(`UPDATE one_time_codes SET consumed_at = now() WHERE id = $1`, [id]);
  }
}
