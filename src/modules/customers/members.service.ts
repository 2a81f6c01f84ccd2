import { Injectable } from '@nestjs/common';
import type { Actor } from '../../common/access/actor';
import type { Scope } from '../../common/access/scope';
import { recordEvents } from '../../common/outbox/outbox';
import { AuthService } from '../auth';
import { CompaniesService } from '../companies';
import { ApiError } from '../../common/http/api-error';
import { CreateMemberDto, MemberDto } from './member.dto';
import { UsersService, type User } from '../users';
import type { WriteAudit } from '../../common/records/write-audit';
import { UnitOfWork } from '../../database/unit-of-work';

/** Customers and drivers created by their company. */
@Injectable()
export class MembersService {
  constructor(
    private readonly uow: UnitOfWork,
    private readonly users: UsersService,
    private readonly auth: AuthService,
    private readonly companies: CompaniesService,
  ) {}

  /** `audit` (platform administration) is called in the same transaction with the new member. */
  async create(actor: Actor, scope: Scope, type: 'customer' | 'driver', dto: CreateMemberDto, audit?: WriteAudit): Promise<MemberDto> {
    const { companyId } = scope;
    // The outbox still takes a manager: the unit's.
    const { user, companyName } = await this.uow.transaction(async (m) => {
      const user = await this.users.create({ type, name: dto.name, email: dto.email, phone: dto.phone, password: dto.password, companyId });
      await recordEvents(m, { type: `${type}.created`, aggregateType: type, aggregateId: user.id, companyId, actorId: actor.id, payload: { name: user.name } });
      const companyName = await this.companies.name(scope);
      if (companyName === null) throw ApiError.notFound('Company');
      await audit?.(m, { id: user.id, before: null, after: memberDto(user, type, scope, !!dto.password) });
      return { user, companyName };
    });
    // After commit: mail never runs inside the transaction.
    if (!dto.password) {
      await this.auth.sendPasswordCode(user.email, `Your ${companyName} account`, `${companyName} created a ${type} account for you. Set your password at /auth/reset-password with this code`);
    }
    return memberDto(user, type, scope, !!dto.password);
  }
}

function memberDto(user: User, type: 'customer' | 'driver', scope: Scope, hasPassword: boolean): MemberDto {
  return {
    id: user.id,
    type,
    name: user.name,
    email: user.email,
    phone: user.phone,
    status: user.status,
    company_id: scope.companyId,
    has_password: hasPassword,
    created_at: user.createdAt.toISOString(),
  };
}
