import { EntityManager, Repository, SelectQueryBuilder } from 'typeorm';
import { ApiError } from '../../common/http/api-error';
import { likePattern, PageQuery, paginate } from '../../common/http/pagination';
import { Page } from '../../common/http/envelope';
import { recordEvents } from '../../common/outbox/outbox';
import { snake } from '../../database/snake-naming.strategy';
import { User, UserStatus } from '../users/user.entity';
import { MemberProfile } from './member-profile.entity';
import { isUniqueViolation } from '../../database/pg-errors';

export type Loaded<P extends MemberProfile> = P & { user: User };

export interface UserChanges {
  name?: string;
  email?: string;
  phone?: string | null;
}

export interface MemberListQuery extends PageQuery {
  status?: UserStatus;
}

/**
 * The company's view of its customers or drivers (the profile table joined with `users`), shared by
 * the Customers and Drivers modules: find, list, update, activate and deactivate.
 * Every method is scoped by the company: another company's member is a 404.
 */
export class MemberDirectory<P extends MemberProfile> {
  constructor(
    private readonly entity: new () => P,
    readonly type: 'customer' | 'driver',
    private readonly label: string,
  ) {}

  repo(m: EntityManager): Repository<P> {
    return m.getRepository(this.entity);
  }

  /** The member with its user; with `lock`, the user row is locked first (FOR UPDATE). */
  async find(m: EntityManager, companyId: string, id: string, lock = false): Promise<Loaded<P>> {
    if (lock) {
      await m.query(`SELECT id FROM users WHERE id = $1 AND company_id = $2 AND type = $3 FOR UPDATE`, [id, companyId, this.type]);
    }
    const row = await this.repo(m)
      .createQueryBuilder('p')
      .innerJoinAndSelect('p.user', 'u')
      .where('p.id = :id AND p.companyId = :companyId AND u.type = :type', { id, companyId, type: this.type })
      .getOne();
    if (!row?.user) throw ApiError.notFound(this.label);
    return row as Loaded<P>;
  }

  /** A page of the company's members: `q` on name, e-mail and phone; `status` filter. */
  list<R>(m: EntityManager, companyId: string, query: MemberListQuery, map: (p: Loaded<P>) => R, extra?: (qb: SelectQueryBuilder<P>) => void): Promise<Page<R>> {
    const qb = this.repo(m)
      .createQueryBuilder('p')
      .innerJoinAndSelect('p.user', 'u')
      .where('p.companyId = :companyId AND u.type = :type', { companyId, type: this.type });
    if (query.q) qb.andWhere('(u.name ILIKE :q OR u.email ILIKE :q OR u.phone ILIKE :q)', { q: likePattern(query.q) });
    if (query.status) qb.andWhere('u.status = :status', { status: query.status });
    extra?.(qb);
    return paginate(qb, query, {
      sortable: { created_at: 'p.createdAt', name: 'u.name', email: 'u.email' },
      map: (p) => map(p as Loaded<P>),
    });
  }

  /** Applies user and profile changes (undefined = unchanged); records `<type>.updated` when anything changed. */
  async update(m: EntityManager, actorId: string, member: Loaded<P>, user: UserChanges, profile: Partial<P>): Promise<Loaded<P>> {
    const changed = await this.updateUser(m, member.user, user);
    const patch = Object.fromEntries(Object.entries(profile).filter(([k, v]) => v !== undefined && v !== member[k as keyof P]));
    if (Object.keys(patch).length) {
      await this.repo(m).update({ id: member.id } as never, patch as never);
      changed.push(...Object.keys(patch).map(snake));
    }
    if (!changed.length) return member;
    await recordEvents(m, { type: `${this.type}.updated`, aggregateType: this.type, aggregateId: member.id, companyId: member.companyId, actorId, payload: { fields: changed } });
    return this.find(m, member.companyId, member.id);
  }

  /** Applies name, e-mail and phone changes to the user (e-mail unique: 409 EMAIL_TAKEN). Returns the changed field names. */
  private async updateUser(m: EntityManager, user: User, changes: UserChanges): Promise<string[]> {
    const patch: Partial<User> = {};
    if (changes.name !== undefined && changes.name !== user.name) patch.name = changes.name;
    if (changes.phone !== undefined && changes.phone !== user.phone) patch.phone = changes.phone;
    if (changes.email !== undefined && changes.email.toLowerCase() !== user.email.toLowerCase()) {
      const email = changes.email.toLowerCase();
      const [taken] = await m.query(`SELECT 1 FROM users WHERE lower(email) = $1 AND id <> $2`, [email, user.id]);
      if (taken) throw emailTaken();
      patch.email = email;
      patch.emailVerifiedAt = null;
    }
    const keys = Object.keys(patch);
    if (!keys.length) return [];
    try {
      await m.update(User, { id: user.id }, patch);
    } catch (e) {
      if (isUniqueViolation(e)) throw emailTaken();
      throw e;
    }
    return keys.map((k) => (k === 'emailVerifiedAt' ? 'email_verified' : k));
  }

  /**
   * Activates or deactivates the member. Repeating the current state is 409 INVALID_TRANSITION.
   * Deactivation takes effect on the member's next request (the access guard reads users.status).
   */
  async setStatus(m: EntityManager, actorId: string, companyId: string, id: string, to: UserStatus): Promise<Loaded<P>> {
    const member = await this.find(m, companyId, id, true);
    if (member.user.status === to) throw ApiError.invalidTransition(member.user.status, to, this.label);
    await m.update(User, { id }, { status: to });
    await recordEvents(m, {
      type: `${this.type}.${to === 'active' ? 'activated' : 'deactivated'}`,
      aggregateType: this.type,
      aggregateId: id,
      companyId,
      actorId,
      payload: { from: member.user.status, to },
    });
    return this.find(m, companyId, id);
  }
}

const emailTaken = () => ApiError.conflict('EMAIL_TAKEN', 'This e-mail address is already registered.');
