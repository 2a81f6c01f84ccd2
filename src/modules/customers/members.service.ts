import { Injectable } from '@nestjs/common';
import { DataSource } from 'typeorm';
import type { Actor } from '../../common/access/actor';
import { recordEvents } from '../../common/outbox/outbox';
import { AuthService } from '../auth';
import { CompaniesService } from '../companies';
import { ApiError } from '../../common/http/api-error';
import { CreateMemberDto, MemberDto } from './member.dto';
import { UsersService, type User } from '../users';
import type { WriteAudit } from '../../common/records/write-audit';
import { runUnit } from '../../database/unit-of-work';

/** Customers and drivers created by their company. */
@Injectable()
export class MembersService {
  constructor(
    private readonly ds: DataSource,
    private readonly users: UsersService,
    private readonly auth: AuthService,
    private readonly companies: CompaniesService,
  ) {}

  /** `audit` (platform administration) is called in the same transaction with the new member. */
  async create(actor: Actor, companyId: string, type: 'customer' | 'driver', dto: CreateMemberDto, audit?: WriteAudit): Promise<MemberDto> {
    const { user, companyName } = await runUnit(this.ds, async (m) => {
      const user = await this.users.create(m, { type, name: dto.name, email: dto.email, phone: dto.phone, password: dto.password, companyId });
      await recordEvents(m, { type: `${type}.created`, aggregateType: type, aggregateId: user.id, companyId, actorId: actor.id, payload: { name: user.name } });
      const companyName = await this.companies.name(companyId, m);
      if (companyName === null) throw ApiError.notFound('Company');
      await audit?.(m, { id: user.id, before: null, after: memberDto(user, type, companyId, !!dto.password) });
      return { user, companyName };
    });
    // After commit: mail never runs inside the transaction.
    if (!dto.password) {
      await this.auth.sendPasswordCode(user.email, `Your ${companyName} account`, `${companyName} created a ${type} account for you. Set your password at /auth/reset-password with this code`);
    }
    return memberDto(user, type, companyId, !!dto.password);
  }
}

function memberDto(user: User, type: 'customer' | 'driver', companyId: string, hasPassword: boolean): MemberDto {
  return {
    id: user.id,
    type,
    name: user.name,
    email: user.email,
    phone: user.phone,
    status: user.status,
    company_id: companyId,
    has_password: hasPassword,
    created_at: user.createdAt.toISOString(),
  };
}
