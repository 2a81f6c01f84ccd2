import { Injectable } from '@nestjs/common';
import { Scope } from '../../common/access/scope';
import { ApiError } from '../../common/http/api-error';
import { Company } from './company.entity';
import { CompanySettingsDto, SETTINGS_DEFAULTS, UpdateSettingsDto } from './company-admin.dto';
import { CompanySettings } from './company-admin.entity';
import { UnitOfWork } from '../../database/unit-of-work';
import { CompanyRepository, CompanySettingsRepository } from './company.repository';

type PolicyKey = keyof typeof SETTINGS_DEFAULTS;
const POLICY_KEYS = Object.keys(SETTINGS_DEFAULTS) as PolicyKey[];
const camel = (k: string) => k.replace(/_([a-z])/g, (_m, c: string) => c.toUpperCase());

/**
 * The company's settings (singleton per company). Other modules read them with `get(scope)`:
 * a row that was never written reads as the defaults, with the company's timezone and currency.
 */
@Injectable()
export class CompanySettingsService {
  constructor(
    private readonly uow: UnitOfWork,
    private readonly companies: CompanyRepository,
    private readonly settings: CompanySettingsRepository,
  ) {}

  /** The scope's company's settings (one statement: the company with its settings row, absent until first saved: defaults). */
  async get(scope: Scope): Promise<CompanySettingsDto> {
    const found = await this.settings.withSettings(scope);
    if (!found) throw ApiError.notFound('Company');
    return render(found.company, found.row);
  }

  /** Partial update; timezone and currency are written to the company too. */
  async update(scope: Scope, actorId: string, dto: UpdateSettingsDto): Promise<CompanySettingsDto> {
    return this.uow.transaction(async () => {
      const { company, row } = await this.lockForWrite(scope);
      for (const key of POLICY_KEYS) {
        if (dto[key] !== undefined) (row as unknown as Record<string, unknown>)[camel(key)] = dto[key];
      }
      if (row.demeritBlockThreshold < row.demeritWarningThreshold) {
        throw ApiError.validation({ demerit_block_threshold: ['must be greater than or equal to demerit_warning_threshold'] });
      }
      if (dto.timezone !== undefined) company.timezone = row.timezone = dto.timezone;
      if (dto.currency !== undefined) company.currency = row.currency = dto.currency;
      if (dto.timezone !== undefined || dto.currency !== undefined) await this.companies.save(company);
      const saved = await this.settings.save(row);
      await this.companies.recordEvents({ type: 'company.settings_updated', aggregateType: 'company', aggregateId: company.id, companyId: company.id, actorId, payload: { fields: Object.keys(dto) } });
      return render(company, saved);
    });
  }

  /** Restores the policy defaults; the company's timezone and currency stay. */
  async reset(scope: Scope, actorId: string): Promise<CompanySettingsDto> {
    return this.uow.transaction(async () => {
      const { company, row } = await this.lockForWrite(scope);
      for (const key of POLICY_KEYS) (row as unknown as Record<string, unknown>)[camel(key)] = SETTINGS_DEFAULTS[key];
      const saved = await this.settings.save(row);
      await this.companies.recordEvents({ type: 'company.settings_reset', aggregateType: 'company', aggregateId: company.id, companyId: company.id, actorId });
      return render(company, saved);
    });
  }

  /** Keeps the settings' copy of timezone/currency in step when the scope's company changes them (in the company's write unit). */
  async mirrorCompany(scope: Scope, company: Company): Promise<void> {
    await this.settings.mirror(scope, company);
  }

  /** The company row and its settings row, both locked (the row is created with defaults if absent). */
  private async lockForWrite(scope: Scope) {
    const company = await this.companies.lock(scope);
    if (!company) throw ApiError.notFound('Company');
    const row = await this.settings.lockRow(scope, company);
    return { company, row };
  }
}

function render(company: Company, row: CompanySettings | null): CompanySettingsDto {
  const policy = Object.fromEntries(POLICY_KEYS.map((k) => [k, row ? (row as unknown as Record<string, unknown>)[camel(k)] : SETTINGS_DEFAULTS[k]]));
  return {
    timezone: company.timezone,
    currency: company.currency,
    ...(policy as Pick<CompanySettingsDto, PolicyKey>),
    updated_at: row ? row.updatedAt.toISOString() : null,
  };
}
