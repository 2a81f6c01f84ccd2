import { Injectable } from '@nestjs/common';
import { DataSource, EntityManager } from 'typeorm';
import { ApiError } from '../../common/http/api-error';
import { recordEvents } from '../../common/outbox/outbox';
import { Company } from './company.entity';
import { CompanySettingsDto, SETTINGS_DEFAULTS, UpdateSettingsDto } from './company-admin.dto';
import { CompanySettings } from './company-admin.entity';
import { runUnit } from '../../database/unit-of-work';

type PolicyKey = keyof typeof SETTINGS_DEFAULTS;
const POLICY_KEYS = Object.keys(SETTINGS_DEFAULTS) as PolicyKey[];
const camel = (k: string) => k.replace(/_([a-z])/g, (_m, c: string) => c.toUpperCase());

/**
 * The company's settings (singleton per company). Other modules read them with `get(companyId, m?)`:
 * a row that was never written reads as the defaults, with the company's timezone and currency.
 */
@Injectable()
export class CompanySettingsService {
  constructor(private readonly ds: DataSource) {}

  async get(companyId: string, m: EntityManager = this.ds.manager): Promise<CompanySettingsDto> {
    // One statement: the company with its settings row (absent until first saved: defaults).
    const company = await m
      .getRepository(Company)
      .createQueryBuilder('c')
      .leftJoinAndMapOne('c.settingsRow', CompanySettings, 's', 's.companyId = c.id')
      .where('c.id = :companyId', { companyId })
      .getOne();
    if (!company) throw ApiError.notFound('Company');
    return render(company, (company as Company & { settingsRow?: CompanySettings }).settingsRow ?? null);
  }

  /** Partial update; timezone and currency are written to the company too. */
  async update(companyId: string, actorId: string, dto: UpdateSettingsDto): Promise<CompanySettingsDto> {
    return runUnit(this.ds, async (m) => {
      const { company, row } = await this.lockForWrite(m, companyId);
      for (const key of POLICY_KEYS) {
        if (dto[key] !== undefined) (row as unknown as Record<string, unknown>)[camel(key)] = dto[key];
      }
      if (row.demeritBlockThreshold < row.demeritWarningThreshold) {
        throw ApiError.validation({ demerit_block_threshold: ['must be greater than or equal to demerit_warning_threshold'] });
      }
      if (dto.timezone !== undefined) company.timezone = row.timezone = dto.timezone;
      if (dto.currency !== undefined) company.currency = row.currency = dto.currency;
      if (dto.timezone !== undefined || dto.currency !== undefined) await m.save(company);
      const saved = await m.save(row);
      await recordEvents(m, { type: 'company.settings_updated', aggregateType: 'company', aggregateId: companyId, companyId, actorId, payload: { fields: Object.keys(dto) } });
      return render(company, saved);
    });
  }

  /** Restores the policy defaults; the company's timezone and currency stay. */
  async reset(companyId: string, actorId: string): Promise<CompanySettingsDto> {
    return runUnit(this.ds, async (m) => {
      const { company, row } = await this.lockForWrite(m, companyId);
      for (const key of POLICY_KEYS) (row as unknown as Record<string, unknown>)[camel(key)] = SETTINGS_DEFAULTS[key];
      const saved = await m.save(row);
      await recordEvents(m, { type: 'company.settings_reset', aggregateType: 'company', aggregateId: companyId, companyId, actorId });
      return render(company, saved);
    });
  }

  /** Keeps the settings' copy of timezone/currency in step when the company changes them. */
  async mirrorCompany(m: EntityManager, company: Company): Promise<void> {
    await m.update(CompanySettings, { companyId: company.id }, { timezone: company.timezone, currency: company.currency });
  }

  /** The company row and its settings row, both locked (the row is created with defaults if absent). */
  private async lockForWrite(m: EntityManager, companyId: string) {
    const company = await m.findOne(Company, { where: { id: companyId }, lock: { mode: 'pessimistic_write' } });
    if (!company) throw ApiError.notFound('Company');
    await m.query(
      `INSERT INTO company_settings (company_id, timezone, currency) VALUES ($1, $2, $3) ON CONFLICT (company_id) DO NOTHING`,
      [companyId, company.timezone, company.currency],
    );
    const row = await m.findOneOrFail(CompanySettings, { where: { companyId }, lock: { mode: 'pessimistic_write' } });
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
