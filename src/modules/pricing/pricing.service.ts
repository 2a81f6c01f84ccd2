import { Injectable } from '@nestjs/common';
import type { Actor } from '../../common/access/actor';
import { Scope } from '../../common/access/scope';
import { Page } from '../../common/http/envelope';
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
import { PaymentTermRepository, PolicyRepository, TaxRepository } from './pricing.repository';

@Injectable()
export class TaxesService {
  constructor(private readonly records: TaxRepository) {}

  async list(scope: Scope, q: TaxQuery) {
    const page = await this.records.page(scope, q);
    return new Page(page.items.map(TaxDto.of), page.meta);
  }
  async get(scope: Scope, id: string) {
    return TaxDto.of(await this.records.find(scope, id));
  }
  async create(actor: Actor, scope: Scope, d: CreateTaxDto) {
    return TaxDto.of(await this.records.create(actor, scope, fields(d)));
  }
  async update(actor: Actor, scope: Scope, id: string, d: UpdateTaxDto) {
    return TaxDto.of(await this.records.update(actor, scope, id, fields(d)));
  }
  remove(actor: Actor, scope: Scope, id: string) {
    return this.records.remove(actor, scope, id);
  }
}
const fields = (d: UpdateTaxDto): Partial<Tax> => ({ name: d.name, rateBps: d.rate_bps, appliesTo: d.applies_to, isDefault: d.is_default });

@Injectable()
export class PaymentTermsService {
  constructor(private readonly records: PaymentTermRepository) {}

  async list(scope: Scope, q: PaymentTermQuery) {
    const page = await this.records.page(scope, q);
    return new Page(page.items.map(PaymentTermDto.of), page.meta);
  }
  async get(scope: Scope, id: string) {
    return PaymentTermDto.of(await this.records.find(scope, id));
  }
  async create(actor: Actor, scope: Scope, d: CreatePaymentTermDto) {
    return PaymentTermDto.of(await this.records.create(actor, scope, termFields(d)));
  }
  async update(actor: Actor, scope: Scope, id: string, d: UpdatePaymentTermDto) {
    return PaymentTermDto.of(await this.records.update(actor, scope, id, termFields(d)));
  }
  remove(actor: Actor, scope: Scope, id: string) {
    return this.records.remove(actor, scope, id);
  }
}
const termFields = (d: UpdatePaymentTermDto): Partial<PaymentTerm> => ({ name: d.name, dueDays: d.due_days, isDefault: d.is_default });

@Injectable()
export class PoliciesService {
  constructor(private readonly records: PolicyRepository) {}

  async list(scope: Scope, q: PolicyQuery) {
    const page = await this.records.page(scope, q);
    return new Page(page.items.map(PolicyDto.of), page.meta);
  }
  async get(scope: Scope, id: string) {
    return PolicyDto.of(await this.records.find(scope, id));
  }
  async create(actor: Actor, scope: Scope, d: CreatePolicyDto) {
    return PolicyDto.of(await this.records.create(actor, scope, policyFields(d)));
  }
  async update(actor: Actor, scope: Scope, id: string, d: UpdatePolicyDto) {
    return PolicyDto.of(await this.records.update(actor, scope, id, policyFields(d)));
  }
  remove(actor: Actor, scope: Scope, id: string) {
    return this.records.remove(actor, scope, id);
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
