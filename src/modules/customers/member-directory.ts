import { SelectQueryBuilder } from 'typeorm';
import { ApiError } from '../../common/http/api-error';
import { Scope } from '../../common/access/scope';
import { companyOfRow, findScoped, PlatformReach, reachQuery } from '../../common/access/tenant-policy';
import { likePattern, PageQuery, paginate } from '../../common/http/pagination';
import { Page } from '../../common/http/envelope';
import { recordEvents } from '../../common/outbox/outbox';
import { ModuleRepository } from '../../database/repository';
import { snake } from '../../database/snake-naming.strategy';
import { UnitOfWork } from '../../database/unit-of-work';
import type { ContactChanges, User, UserStatus } from '../users';
import { UsersService } from '../users';
import { MemberProfile } from '../users';

export type Loaded<P extends MemberProfile> = P & { user: User };

export type UserChanges = ContactChanges;

export interface MemberListQuery extends PageQuery {
  status?: UserStatus;
}

/**
 * The company's view of its customers or drivers (the profile table joined with `users`), shared by
 * the Customers and Drivers modules: find, list, update, activate and deactivate.
 * Every method is scoped through the tenant policy: another company's member is a 404.
 *
 * Why this is not `CompanyRecords` (the persistence base of company-owned records): a member is a
 * user (users module) plus a profile row keyed by the user's id. It is created with the user
 * (`UsersService.create` → `MemberProfiles`), never soft-deleted, and its name, e-mail (unique across
 * the platform), phone and status live in `users` and change through `UsersService`; only the profile
 * columns are this module's to write. What it shares with `CompanyRecords` (loading by id and lists
 * through the tenant policy, events in the same transaction) it takes from the same helpers.
 *
 * It is the repositories' part (CustomerRepository, DriverRepository construct one for their table): its
 * statements run on the unit of work's manager like theirs; a lock or a write must run inside a unit.
 */
export class MemberDirectory<P extends MemberProfile> extends ModuleRepository {
  constructor(
    uow: UnitOfWork,
    private readonly entity: new () => P,
    readonly type: 'customer' | 'driver',
    private readonly label: string,
    private readonly users: UsersService,
  ) {
    super(uow);
  }

  /**
   * The member with its user, for the caller's scope (the company: any of its members; a member:
   * only themself). With `lock`, the profile row is locked first (FOR UPDATE), which serialises
   * changes of one member.
   */
  async find(scope: Scope, id: string, lock = false): Promise<Loaded<P>> {
    const m = lock ? this.locked : this.m;
    if (lock) await findScoped(m, this.entity, scope, id, { what: this.label, lock: true });
    const row = await findScoped(m, this.entity, scope, id, { what: this.label, relations: { user: true } as never });
    if (!row.user) throw ApiError.notFound(this.label);
    return row as Loaded<P>;
  }

  /** The company of a member (null when there is none): an administrator names a member by id alone. */
  companyOf(id: string): Promise<string | null> {
    return companyOfRow(this.m, this.entity, id);
  }

  /**
   * A page of the company's members (or, for an administrator, of the companies `reach` covers): `q` on
   * name, e-mail and phone; `status` filter.
   */
  list<R>(who: Scope | PlatformReach, query: MemberListQuery, map: (p: Loaded<P>) => R, extra?: (qb: SelectQueryBuilder<P>) => void): Promise<Page<R>> {
    const qb = reachQuery(this.m, this.entity, who instanceof PlatformReach ? who : Scope.company(who.companyId), 'p').innerJoinAndSelect('p.user', 'u');
    if (query.q) qb.andWhere('(u.name ILIKE :q OR u.email ILIKE :q OR u.phone ILIKE :q)', { q: likePattern(query.q) });
    if (query.status) qb.andWhere('u.status = :status', { status: query.status });
    extra?.(qb);
    return paginate(qb, query, {
      sortable: { created_at: 'p.createdAt', name: 'u.name', email: 'u.email' },
      map: (p) => map(p as Loaded<P>),
    });
  }

  /** Applies user and profile changes (undefined = unchanged); records `<type>.updated` when anything changed. */
  async update(actorId: string, member: Loaded<P>, user: UserChanges, profile: Partial<P>): Promise<Loaded<P>> {
    const m = this.locked;
    const changed = await this.users.updateContact(Scope.company(member.companyId), member.id, user);
    const patch = Object.fromEntries(Object.entries(profile).filter(([k, v]) => v !== undefined && v !== member[k as keyof P]));
    if (Object.keys(patch).length) {
      await m.getRepository(this.entity).update({ id: member.id } as never, patch as never);
      changed.push(...Object.keys(patch).map(snake));
    }
    if (!changed.length) return member;
    await recordEvents(m, { type: `${this.type}.updated`, aggregateType: this.type, aggregateId: member.id, companyId: member.companyId, actorId, payload: { fields: changed } });
    return this.find(Scope.company(member.companyId), member.id);
  }

  /**
   * Activates or deactivates the member. Repeating the current state is 409 INVALID_TRANSITION.
   * Deactivation takes effect on the member's next request (the access guard reads users.status).
   */
  async setStatus(actorId: string, scope: Scope, id: string, to: UserStatus): Promise<Loaded<P>> {
    const company = Scope.company(scope.companyId);
    const member = await this.find(company, id, true);
    if (member.user.status === to) throw ApiError.invalidTransition(member.user.status, to, this.label);
    await this.users.setStatus(company, id, to);
    await recordEvents(this.locked, {
      type: `${this.type}.${to === 'active' ? 'activated' : 'deactivated'}`,
      aggregateType: this.type,
      aggregateId: id,
      companyId: scope.companyId,
      actorId,
      payload: { from: member.user.status, to },
    });
    return this.find(company, id);
  }
}

