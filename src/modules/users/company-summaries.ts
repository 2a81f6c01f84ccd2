import { Injectable } from '@nestjs/common';
import { EntityManager } from 'typeorm';
import type { CompanySummaryDto } from './user.dto';

/** The summary (id, name, status) of a live company, or null when there is none (absent or deleted). */
export type CompanySummaryLookup = (m: EntityManager, companyId: string) => Promise<CompanySummaryDto | null>;

/**
 * How users learns of the company a user belongs to (dependency inversion: companies, a higher layer,
 * registers the lookup in its onModuleInit; users never reads the companies table).
 */
@Injectable()
export class CompanySummaries {
  private lookup: CompanySummaryLookup | null = null;

  register(lookup: CompanySummaryLookup): void {
    this.lookup = lookup;
  }

  /** The company's summary; null without a company, when it is absent or deleted, or when no lookup is registered. */
  async get(m: EntityManager, companyId: string | null): Promise<CompanySummaryDto | null> {
    if (!companyId || !this.lookup) return null;
    return this.lookup(m, companyId);
  }
}
