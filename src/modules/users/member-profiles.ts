import { Injectable } from '@nestjs/common';
import { Scope } from '../../common/access/scope';
import type { UserType } from './user.types';

/** Creates the role record (profile row) of a new user of the scope's company, inside the user's creation unit of work (which carries the manager). */
export type MemberProfileFactory = (scope: Scope, userId: string) => Promise<void>;

/**
 * Refuses (throws, e.g. a 422 `ApiError`) a user who registers by themself as a member of the company,
 * before anything is written; resolves when the company takes such members.
 */
export type MemberAdmission = (company: Scope) => Promise<void>;

/**
 * The modules that own role records (customers, drivers) register how to create one (dependency
 * inversion: users, a lower layer, never imports them). `UsersService.create` calls `create`; the
 * self-registration route calls `admit` first, so the owning module can refuse the company.
 */
@Injectable()
export class MemberProfiles {
  private readonly factories = new Map<UserType, MemberProfileFactory>();
  private readonly admissions = new Map<UserType, MemberAdmission>();

  register(type: UserType, factory: MemberProfileFactory, admit?: MemberAdmission): void {
    this.factories.set(type, factory);
    if (admit) this.admissions.set(type, admit);
    else this.admissions.delete(type);
  }

  /**
   * Self-registration (`/auth/register` with a `company_id`): the module owning the role record may
   * refuse the company (it throws). Call before creating the user, inside the same transaction. Fails
   * closed: a type whose module registered no admission takes no self-registered members.
   */
  async admit(type: UserType, company: Scope): Promise<void> {
    const admit = this.admissions.get(type);
    if (!admit) throw new Error(`No module admits self-registered ${type} users`);
    await admit(company);
  }

  async create(type: UserType, user: { id: string; companyId: string | null }): Promise<void> {
    const factory = this.factories.get(type);
    if (!factory) return;
    if (!user.companyId) throw new Error(`A ${type} needs a company`);
    await factory(Scope.company(user.companyId), user.id);
  }
}
