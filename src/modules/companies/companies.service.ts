import { Injectable } from '@nestjs/common';
import { DataSource } from 'typeorm';
import type { Actor } from '../../common/access/actor';
import { ApiError } from '../../common/http/api-error';
import { recordEvents } from '../../common/outbox/outbox';
import { CompanyDto, CreateCompanyDto } from './company.dto';
import { Company } from './company.entity';

@Injectable()
export class CompaniesService {
  constructor(private readonly ds: DataSource) {}

  /** The caller's company: a company user's own, a customer's or a driver's employer. */
  async mine(actor: Actor): Promise<CompanyDto> {
    const [row] = await this.ds.query(`SELECT company_id FROM users WHERE id = $1`, [actor.id]);
    const company = row?.company_id ? await this.ds.getRepository(Company).findOneBy({ id: row.company_id }) : null;
    if (!company) throw ApiError.notFound('Company');
    return CompanyDto.of(company);
  }

  /** A company user creates its company and becomes its owner (once). */
  async create(actor: Actor, dto: CreateCompanyDto): Promise<CompanyDto> {
    if (actor.type !== 'company') throw ApiError.forbidden('WRONG_ACTOR', 'Only company users create a company.');
    const company = await this.ds.transaction(async (m) => {
      const [user] = await m.query(`SELECT company_id FROM users WHERE id = $1 FOR UPDATE`, [actor.id]);
      if (user?.company_id) throw ApiError.conflict('COMPANY_EXISTS', 'You already have a company.');
      const saved = await m.save(
        m.create(Company, {
          ownerId: actor.id,
          name: dto.name,
          email: dto.email ?? null,
          phone: dto.phone ?? null,
          address: dto.address ?? null,
          timezone: dto.timezone ?? 'UTC',
          currency: dto.currency ?? 'USD',
          status: 'active',
        }),
      );
      await m.query(`UPDATE users SET company_id = $2, updated_at = now() WHERE id = $1`, [actor.id, saved.id]);
      await recordEvents(m, { type: 'company.created', aggregateType: 'company', aggregateId: saved.id, companyId: saved.id, actorId: actor.id, payload: { name: saved.name } });
      return saved;
    });
    return CompanyDto.of(company);
  }
}
