import { EntityManager, EntityTarget, FindOptionsRelations, FindOptionsWhere, IsNull, ObjectLiteral, SelectQueryBuilder } from 'typeorm';
import { ApiError } from '../http/api-error';
import type { Scope, ScopeKind } from './scope';

/**
 * How the rows of an entity belong to a tenant, declared on the entity with `@Tenant(...)`:
 * - `company`: the property holding the owning company (default `companyId`);
 * - `customer` / `driver`: the property naming the customer (driver) who owns a row; such a caller
 *   reaches only their own rows. `false`: that kind of caller never reaches the rows. Absent: the
 *   rows are the company's shared records (catalogue, promotions), which that caller may read.
 */
export interface TenantRule {
  company: string;
  customer?: string | false;
  driver?: string | false;
}

const TENANT_RULE = Symbol('haulops:tenant');

/** Declares an entity's tenant rule (see `TenantRule`). */
export function Tenant(rule: Partial<TenantRule> = {}): ClassDecorator {
  return (target) => {
    Reflect.defineMetadata(TENANT_RULE, { company: 'companyId', ...rule } satisfies TenantRule, target);
  };
}

function ruleOf(m: EntityManager, entity: EntityTarget<ObjectLiteral>): { rule: TenantRule; softDelete: boolean; name: string } {
  const meta = m.connection.getMetadata(entity);
  const rule: TenantRule | undefined = Reflect.getMetadata(TENANT_RULE, meta.target as object);
  if (!rule) throw new Error(`${meta.name} declares no @Tenant rule; the tenant policy cannot scope it.`);
  return { rule, softDelete: !!meta.findColumnWithPropertyName('deletedAt') && !meta.deleteDateColumn, name: meta.name };
}

/** The property a caller of `kind` is limited by: null = shared rows, undefined = never reachable. */
function ownerProperty(rule: TenantRule, kind: ScopeKind): string | null | undefined {
  if (kind === 'company') return null;
  const owner = rule[kind];
  if (owner === false) return undefined;
  return owner ?? null;
}

/**
 * The find conditions that limit an entity to what `scope` may reach, or null when the caller may
 * reach none of its rows. Soft-deleted rows are left out.
 */
export function scopeWhere<E extends ObjectLiteral>(m: EntityManager, entity: EntityTarget<E>, scope: Scope): FindOptionsWhere<E> | null {
  const { rule, softDelete } = ruleOf(m, entity);
  const owner = ownerProperty(rule, scope.kind);
  if (owner === undefined) return null;
  const where: Record<string, unknown> = { [rule.company]: scope.companyId };
  if (owner) where[owner] = scope.actorId;
  if (softDelete) where.deletedAt = IsNull();
  return where as FindOptionsWhere<E>;
}

/**
 * For a repository's own SQL on an entity's table: the conditions (database column names and values)
 * that limit it to what `scope` may reach, the soft-delete column to require NULL (if any), or null when
 * the caller reaches none of its rows. The same rule as `scopeWhere` and `scopedQuery`.
 */
export function scopeConditions(m: EntityManager, entity: EntityTarget<ObjectLiteral>, scope: Scope): { conditions: { column: string; value: string | null }[]; softDeleteColumn: string | null } | null {
  const { rule, softDelete } = ruleOf(m, entity);
  const owner = ownerProperty(rule, scope.kind);
  if (owner === undefined) return null;
  const meta = m.connection.getMetadata(entity);
  const column = (property: string) => {
    const c = meta.findColumnWithPropertyName(property);
    if (!c) throw new Error(`${meta.name}.${property}: no such column (tenant rule)`);
    return c.databaseName;
  };
  const conditions = [{ column: column(rule.company), value: scope.companyId as string | null }];
  if (owner) conditions.push({ column: column(owner), value: scope.actorId });
  return { conditions, softDeleteColumn: softDelete ? column('deletedAt') : null };
}

export interface FindScopedOptions<E> {
  /** Name for the 404 message ("Order"). */
  what: string;
  /** Take a row lock (FOR UPDATE) for the rest of the caller's transaction. */
  lock?: boolean;
  /** Further conditions (e.g. a parent id). */
  where?: FindOptionsWhere<E>;
  relations?: FindOptionsRelations<E>;
}

/**
 * The one way to load a record by id for a caller: the row when `scope` reaches it, else 404 (absent,
 * soft-deleted, another company's, another customer's or driver's: all look the same from outside).
 */
export async function findScoped<E extends ObjectLiteral>(m: EntityManager, entity: EntityTarget<E>, scope: Scope, id: string, o: FindScopedOptions<E>): Promise<E> {
  const where = scopeWhere(m, entity, scope);
  const row = where
    ? await m.getRepository(entity).findOne({
        where: { ...where, ...o.where, id } as FindOptionsWhere<E>,
        ...(o.relations ? { relations: o.relations } : {}),
        ...(o.lock ? { lock: { mode: 'pessimistic_write' as const } } : {}),
      })
    : null;
  if (!row) throw ApiError.notFound(o.what);
  return row;
}

/** A query over the rows `scope` reaches (for lists); a caller who reaches none gets an empty result. */
export function scopedQuery<E extends ObjectLiteral>(m: EntityManager, entity: EntityTarget<E>, scope: Scope, alias: string): SelectQueryBuilder<E> {
  const { rule, softDelete } = ruleOf(m, entity);
  const qb = m.getRepository(entity).createQueryBuilder(alias);
  const owner = ownerProperty(rule, scope.kind);
  if (owner === undefined) return qb.where('1 = 0');
  qb.where(`${alias}.${rule.company} = :scopeCompanyId`, { scopeCompanyId: scope.companyId });
  if (owner) qb.andWhere(`${alias}.${owner} = :scopeOwnerId`, { scopeOwnerId: scope.actorId });
  if (softDelete) qb.andWhere(`${alias}.deletedAt IS NULL`);
  return qb;
}

/** A body field that references a row by id (absent or null ids are not checked). */
export interface BodyRef {
  field: string;
  id: string | null | undefined;
}

/**
 * Body references must be rows `scope` reaches (live, the company's, the caller's own where the rule
 * says so), share-locked (FOR SHARE) until the caller's transaction commits, so that they cannot be
 * deleted meanwhile. The missing ones are 422 with their field names
 * (e.g. `items.0.asset_specification_id: ['not found']`). Run inside a transaction.
 */
export async function assertReachable<E extends ObjectLiteral>(m: EntityManager, entity: EntityTarget<E>, scope: Scope, refs: readonly BodyRef[]): Promise<void> {
  const ids = [...new Set(refs.map((r) => r.id?.toLowerCase()).filter((id): id is string => !!id))];
  if (!ids.length) return;
  const rows: { id: string }[] = await scopedQuery(m, entity, scope, 'ref')
    .select('ref.id', 'id')
    .andWhere('ref.id IN (:...refIds)', { refIds: ids })
    .setLock('pessimistic_read')
    .getRawMany();
  const found = new Set(rows.map((r) => r.id.toLowerCase()));
  const missing = refs.filter((r) => r.id && !found.has(r.id.toLowerCase()));
  if (missing.length) throw ApiError.validation(Object.fromEntries(missing.map((r) => [r.field, ['not found']])));
}

/**
 * An administrator's reach across companies (platform administration, README "Platform
 * administration"): every company's rows, or one company's (`companyId`), optionally created within
 * `from`..`to` (UTC dates, inclusive). Only lists take it, and only the platform module builds one:
 * a tenant's caller always has a `Scope`.
 */
export class PlatformReach {
  constructor(
    readonly companyId: string | null = null,
    readonly from: string | null = null,
    readonly to: string | null = null,
  ) {}
}

/** A query over the live rows `reach` covers (lists of the platform's administrators). */
export function platformQuery<E extends ObjectLiteral>(m: EntityManager, entity: EntityTarget<E>, reach: PlatformReach, alias: string): SelectQueryBuilder<E> {
  const { rule, softDelete } = ruleOf(m, entity);
  const qb = m.getRepository(entity).createQueryBuilder(alias).where('1 = 1');
  if (reach.companyId) qb.andWhere(`${alias}.${rule.company} = :reachCompanyId`, { reachCompanyId: reach.companyId });
  if (reach.from) qb.andWhere(`${alias}.createdAt >= ((:reachFrom)::date)::timestamp AT TIME ZONE 'UTC'`, { reachFrom: reach.from });
  if (reach.to) qb.andWhere(`${alias}.createdAt < ((:reachTo)::date + 1)::timestamp AT TIME ZONE 'UTC'`, { reachTo: reach.to });
  if (softDelete) qb.andWhere(`${alias}.deletedAt IS NULL`);
  return qb;
}

/** The caller's scope or an administrator's reach: the query of the rows either covers. */
export function reachQuery<E extends ObjectLiteral>(m: EntityManager, entity: EntityTarget<E>, who: Scope | PlatformReach, alias: string): SelectQueryBuilder<E> {
  return who instanceof PlatformReach ? platformQuery(m, entity, who, alias) : scopedQuery(m, entity, who, alias);
}

/**
 * The company a live row belongs to, or null (absent or deleted): how an administrator, who names a
 * record by id alone, finds the company whose `Scope` then loads it with `findScoped`.
 */
export async function companyOfRow<E extends ObjectLiteral>(m: EntityManager, entity: EntityTarget<E>, id: string): Promise<string | null> {
  const { rule, softDelete } = ruleOf(m, entity);
  const qb = m.getRepository(entity).createQueryBuilder('r').select(`r.${rule.company}`, 'company_id').where('r.id = :id', { id });
  if (softDelete) qb.andWhere('r.deletedAt IS NULL');
  const row = await qb.getRawOne<{ company_id: string }>();
  return row?.company_id ?? null;
}
