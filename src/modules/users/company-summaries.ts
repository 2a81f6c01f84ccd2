import { Injectable } from '@nestjs/common';
import { Scope } from '../../common/access/scope';
import type { CompanySummaryDto } from './user.dto';

/** The summary (id, name, status) of a live company, or null when there is none (absent or deleted). */
export type CompanySummaryLookup = (company: Scope) => Promise<CompanySummaryDto | null>;
/** The same summary as SQL: a scalar subquery giving a JSON object (or null) for the company id in `idColumn`. */
export type CompanySummarySql = (idColumn: string) => string;

/**
 * How users learns of the company a user belongs to (dependency inversion: companies, a higher layer,
 * registers the lookup in its onModuleInit; users never reads the companies table).
 */
@Injectable()
export class CompanySummaries {
  private lookup: CompanySummaryLookup | null = null;
  private sqlOf: CompanySummarySql | null = null;

  register(lookup: CompanySummaryLookup, sql: CompanySummarySql): void {
    this.lookup = lookup;
    this.sqlOf = sql;
  }

  /**
   * The summary as a subquery for the company id in `idColumn` (a read stays one statement); `NULL` when no lookup is registered.
   *
   * @deprecated SQL text of the companies module inside the users module's profile statement (issue #24):
   * the typed alternative is `get` (a second statement). Kept while `/auth/me` stays at its statement
   * budget (test/database/statements-per-request.e2e.spec.ts).
   */
  sql(idColumn: string): string {
    return this.sqlOf ? this.sqlOf(idColumn) : 'NULL::json';
  }

  /** The company's summary; null without a company, when it is absent or deleted, or when no lookup is registered. */
  async get(company: Scope | null): Promise<CompanySummaryDto | null> {
    if (!company || !this.lookup) return null;
    return this.lookup(company);
  }
}
