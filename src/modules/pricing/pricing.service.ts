import { Injectable } from '@nestjs/common';
import { DataSource } from 'typeorm';
import type { Actor } from '../../common/access/actor';
import { likePattern, paginate } from '../../common/http/pagination';
import { CompanyRecords } from '../../common/records/company-records';
import {
  CreatePaymentTermDto,
  CreatePolicyDto,
  CreateTaxDto,
  PaymentTermDto,
  PaymentTermQuery,
  PolicyDto,
  PolicyQuery,
  TaxDto,
  TaxQuery,
  UpdatePaymentTermDto,
  UpdatePolicyDto,
  UpdateTaxDto,
} from './pricing.dto';
import { PaymentTerm, Policy, Tax } from './pricing.entity';

@Injectable()
export class TaxesService {
  private readonly records: CompanyRecords<Tax>;
  constructor(ds: DataSource) {
    this.records = new CompanyRecords(ds, { entity: Tax, what: 'Tax', event: 'tax', singleDefault: true });
  }

  list(companyId: string, q: TaxQuery) {
    const qb = this.records.query(companyId, 't');
    if (q.applies_to) qb.andWhere('t.appliesTo = :appliesTo', { appliesTo: q.applies_to });
    if (q.q) qb.andWhere('t.name ILIKE :q', { q: likePattern(q.q) });
    return paginate(qb, q, { sortable: { created_at: 't.createdAt', name: 't.name', rate_bps: 't.rateBps' }, map: TaxDto.of });
  }
  async get(companyId: string, id: string) {
    return TaxDto.of(await this.records.find(companyId, id));
  }
  async create(actor: Actor, companyId: string, d: CreateTaxDto) {
    return TaxDto.of(await this.records.create(actor, companyId, fields(d)));
  }
  async update(actor: Actor, companyId: string, id: string, d: UpdateTaxDto) {
    return TaxDto.of(await this.records.update(actor, companyId, id, fields(d)));
  }
  remove(actor: Actor, companyId: string, id: string) {
    return this.records.remove(actor, companyId, id);
  }
}
const fields = (d: UpdateTaxDto): Partial<Tax> => ({ name: d.name, rateBps: d.rate_bps, appliesTo: d.applies_to, isDefault: d.is_default });

@Injectable()
export class PaymentTermsService {
  private readonly records: CompanyRecords<PaymentTerm>;
  constructor(ds: DataSource) {
    this.records = new CompanyRecords(ds, { entity: PaymentTerm, what: 'Payment term', event: 'payment_term', singleDefault: true });
  }

  list(companyId: string, q: PaymentTermQuery) {
    const qb = this.records.query(companyId, 'p');
    if (q.q) qb.andWhere('p.name ILIKE :q', { q: likePattern(q.q) });
    return paginate(qb, q, { sortable: { created_at: 'p.createdAt', name: 'p.name', due_days: 'p.dueDays' }, map: PaymentTermDto.of });
  }
  async get(companyId: string, id: string) {
    return PaymentTermDto.of(await this.records.find(companyId, id));
  }
  async create(actor: Actor, companyId: string, d: CreatePaymentTermDto) {
    return PaymentTermDto.of(await this.records.create(actor, companyId, termFields(d)));
  }
  async update(actor: Actor, companyId: string, id: string, d: UpdatePaymentTermDto) {
    return PaymentTermDto.of(await this.records.update(actor, companyId, id, termFields(d)));
  }
  remove(actor: Actor, companyId: string, id: string) {
    return this.records.remove(actor, companyId, id);
  }
}
const termFields = (d: UpdatePaymentTermDto): Partial<PaymentTerm> => ({ name: d.name, dueDays: d.due_days, isDefault: d.is_default });

@Injectable()
export class PoliciesService {
  private readonly records: CompanyRecords<Policy>;
  constructor(ds: DataSource) {
    this.records = new CompanyRecords(ds, { entity: Policy, what: 'Policy', event: 'policy', nullable: ['description'] });
  }

  list(companyId: string, q: PolicyQuery) {
    const qb = this.records.query(companyId, 'p');
    if (q.category) qb.andWhere('p.category = :category', { category: q.category });
    if (q.active !== undefined) qb.andWhere('p.active = :active', { active: q.active });
    if (q.q) qb.andWhere('p.name ILIKE :q', { q: likePattern(q.q) });
    return paginate(qb, q, { sortable: { created_at: 'p.createdAt', name: 'p.name', demerit_points: 'p.demeritPoints', fee_amount: 'p.feeAmount' }, map: PolicyDto.of });
  }
  async get(companyId: string, id: string) {
    return PolicyDto.of(await this.records.find(companyId, id));
  }
  async create(actor: Actor, companyId: string, d: CreatePolicyDto) {
    return PolicyDto.of(await this.records.create(actor, companyId, policyFields(d)));
  }
  async update(actor: Actor, companyId: string, id: string, d: UpdatePolicyDto) {
    return PolicyDto.of(await this.records.update(actor, companyId, id, policyFields(d)));
  }
  remove(actor: Actor, companyId: string, id: string) {
    return this.records.remove(actor, companyId, id);
  }
}
const policyFields = (d: UpdatePolicyDto): Partial<Policy> => ({
  name: d.name,
  category: d.category,
  demeritPoints: d.demerit_points,
  feeAmount: d.fee_amount,
  description: d.description,
  active: d.active,
});
