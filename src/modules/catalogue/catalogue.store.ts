import { DataSource, EntityManager, EntityTarget, FindOptionsWhere, QueryFailedError, SelectQueryBuilder } from 'typeorm';
import type { QueryDeepPartialEntity } from 'typeorm/query-builder/QueryPartialEntity';
import type { Actor } from '../../common/access/actor';
import { ApiError } from '../../common/http/api-error';
import { recordEvents } from '../../common/outbox/outbox';
import { CompanyOwned } from './catalogue.entities';

/** A company-owned row by id (soft-deleted and other tenants' rows are absent): 404 otherwise. */
export async function findOwned<E extends { id: string; companyId: string }>(
  m: EntityManager,
  entity: EntityTarget<E>,
  companyId: string,
  id: string,
  what: string,
  lock = false,
): Promise<E> {
  const row = await m.getRepository(entity).findOne({
    where: { id, companyId } as FindOptionsWhere<E>,
    ...(lock ? { lock: { mode: 'pessimistic_write' as const } } : {}),
  });
  if (!row) throw ApiError.notFound(what);
  return row;
}

/** A reference inside a body (e.g. `asset_category_id`) must name a live row of the caller's company: 422 otherwise. */
export async function assertReference(m: EntityManager, entity: EntityTarget<CompanyOwned>, companyId: string, id: string, field: string): Promise<void> {
  const exists = await m.getRepository(entity).exists({ where: { id, companyId } });
  if (!exists) throw ApiError.validation({ [field]: ['not found'] });
}

/** Required fields may be omitted in a PUT but not set to null. */
export function rejectNulls(dto: object, fields: string[]): void {
  const errors: Record<string, string[]> = {};
  for (const f of fields) if ((dto as Record<string, unknown>)[f] === null) errors[f] = ['must not be null'];
  if (Object.keys(errors).length) throw ApiError.validation(errors);
}

/** The violated unique index's name, when `e` is a unique violation. */
function uniqueViolation(e: unknown): string | undefined {
  if (!(e instanceof QueryFailedError)) return undefined;
  const d = ((e as { driverError?: { code?: string; constraint?: string } }).driverError ?? e) as { code?: string; constraint?: string };
  return d.code === '23505' ? (d.constraint ?? '') : undefined;
}

export interface UniqueField {
  /** Entity property and its SQL column. */
  property: string;
  column: string;
  /** The unique index that also enforces it. */
  index: string;
  code: string;
  message: string;
}

export interface CrudOptions<E extends CompanyOwned> {
  entity: new () => E;
  /** Human name for errors ("Waste type"). */
  what: string;
  /** Event prefix (`waste_type` → `waste_type.created`). */
  event: string;
  /** Case-insensitive unique properties per company (409 with `code`). */
  unique?: UniqueField[];
  /** True when live rows use the record (delete → 409 IN_USE). */
  inUse?: (m: EntityManager, row: E) => Promise<boolean>;
}

/**
 * The shared life cycle of a soft-deletable company-owned catalogue record: scoped reads, unique
 * checks (also mapped from the unique index), events in the transaction, soft delete with IN_USE.
 */
export class CatalogueCrud<E extends CompanyOwned> {
  constructor(
    protected readonly ds: DataSource,
    protected readonly o: CrudOptions<E>,
  ) {}

  /** Live rows of the company, alias `e`. */
  query(companyId: string): SelectQueryBuilder<E> {
    return this.ds.getRepository(this.o.entity).createQueryBuilder('e').where('e.companyId = :companyId', { companyId });
  }

  get(companyId: string, id: string): Promise<E> {
    return findOwned(this.ds.manager, this.o.entity, companyId, id, this.o.what);
  }

  async create(actor: Actor, companyId: string, values: Partial<E>, check?: (m: EntityManager) => Promise<void>): Promise<E> {
    return this.write(async (m) => {
      await check?.(m);
      await this.assertUnique(m, companyId, values, null);
      const row = await m.save(m.create(this.o.entity, { ...values, companyId } as E));
      await this.event(m, actor, row, 'created', { fields: Object.keys(values) });
      return row;
    });
  }

  /** Locks the row, lets `apply` validate and change it, then saves. */
  async update(actor: Actor, companyId: string, id: string, apply: (m: EntityManager, row: E) => Promise<Partial<E>> | Partial<E>): Promise<E> {
    return this.write(async (m) => {
      const row = await findOwned(m, this.o.entity, companyId, id, this.o.what, true);
      const changes = await apply(m, row);
      const defined = Object.fromEntries(Object.entries(changes).filter(([, v]) => v !== undefined)) as Partial<E>;
      await this.assertUnique(m, companyId, defined, row.id);
      if (Object.keys(defined).length) {
        await m.update(this.o.entity, { id: row.id } as FindOptionsWhere<E>, { ...defined, updatedAt: new Date() } as QueryDeepPartialEntity<E>);
      }
      await this.event(m, actor, row, 'updated', { fields: Object.keys(defined) });
      return findOwned(m, this.o.entity, companyId, id, this.o.what);
    });
  }

  async remove(actor: Actor, companyId: string, id: string): Promise<void> {
    await this.ds.transaction(async (m) => {
      const row = await findOwned(m, this.o.entity, companyId, id, this.o.what, true);
      if (this.o.inUse && (await this.o.inUse(m, row))) throw ApiError.inUse(this.o.what);
      await m.softDelete(this.o.entity, { id: row.id } as FindOptionsWhere<E>);
      await this.event(m, actor, row, 'deleted', {});
    });
  }

  protected async event(m: EntityManager, actor: Actor, row: E, what: string, payload: Record<string, unknown>): Promise<void> {
    await recordEvents(m, { type: `${this.o.event}.${what}`, aggregateType: this.o.event, aggregateId: row.id, companyId: row.companyId, actorId: actor.id, payload });
  }

  private async assertUnique(m: EntityManager, companyId: string, values: Partial<E>, exceptId: string | null): Promise<void> {
    for (const u of this.o.unique ?? []) {
      const value = (values as Record<string, unknown>)[u.property];
      if (typeof value !== 'string') continue;
      const qb = m
        .getRepository(this.o.entity)
        .createQueryBuilder('e')
        .where('e.companyId = :companyId', { companyId })
        .andWhere(`lower(e.${u.column}) = lower(:value)`, { value });
      if (exceptId) qb.andWhere('e.id <> :exceptId', { exceptId });
      if (await qb.getExists()) throw ApiError.conflict(u.code, u.message);
    }
  }

  /** A transaction whose unique-index violation (a race past the check) is that field's 409. */
  private async write<T>(fn: (m: EntityManager) => Promise<T>): Promise<T> {
    try {
      return await this.ds.transaction(fn);
    } catch (e) {
      const index = uniqueViolation(e);
      const u = index === undefined ? undefined : (this.o.unique?.find((x) => x.index === index) ?? this.o.unique?.[0]);
      if (u) throw ApiError.conflict(u.code, u.message);
      throw e;
    }
  }
}
