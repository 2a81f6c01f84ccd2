import { Type } from '@nestjs/common';
import { DataSource, EntityManager, IsNull, QueryFailedError, SelectQueryBuilder } from 'typeorm';
import type { Actor } from '../../common/access/actor';
import { ApiError, FieldErrors } from '../../common/http/api-error';
import { recordEvents } from '../../common/outbox/outbox';

/** A company-owned, soft-deleted catalogue row. */
export interface CompanyRow {
  id: string;
  companyId: string;
  createdAt: Date;
  updatedAt: Date;
  deletedAt: Date | null;
}

export interface CompanyRecordsOptions<E> {
  entity: Type<E>;
  table: string;
  /** Human name for messages ("Tax"). */
  what: string;
  /** Event prefix and aggregate type ("tax" → tax.created, tax.updated, tax.deleted). */
  event: string;
  /** Properties that an update may set to null; any other null is a 422. */
  nullable?: (keyof E & string)[];
  /** `is_default`: at most one per company; setting it clears the others. */
  singleDefault?: boolean;
  /** Case-insensitive unique text per company (e.g. a promotion code): pre-checked and mapped from the index. */
  unique?: { property: keyof E & string; column: string; index: string; error: () => ApiError };
}

/** Hooks run inside the transaction: `before` the row is written (body references), `after` it is saved (children). */
export type AfterSave<E> = (m: EntityManager, row: E) => Promise<void>;
export interface WriteHooks<E> {
  /** `current`: the stored row (locked) on update, null on create. */
  before?: (m: EntityManager, current: E | null) => Promise<void> | void;
  after?: AfterSave<E>;
}
const hooksOf = <E>(h?: WriteHooks<E> | AfterSave<E>): WriteHooks<E> => (typeof h === 'function' ? { after: h } : (h ?? {}));

const snake = (s: string) => s.replace(/[A-Z]/g, (c) => '_' + c.toLowerCase());

/** Drops undefined values, so that a partial update leaves absent fields alone. */
export function defined<T extends object>(values: T): Partial<T> {
  return Object.fromEntries(Object.entries(values).filter(([, v]) => v !== undefined)) as Partial<T>;
}

/**
 * Create, read, update and soft-delete of one company-owned catalogue table: tenancy, 404s, the
 * single default flag, a unique text column, events in the same transaction. Each module's service
 * adds its own list filters, references and children.
 */
export class CompanyRecords<E extends CompanyRow> {
  constructor(
    private readonly ds: DataSource,
    readonly o: CompanyRecordsOptions<E>,
  ) {}

  /** The company's live rows, for lists. */
  query(companyId: string, alias: string, m: EntityManager = this.ds.manager): SelectQueryBuilder<E> {
    return m
      .getRepository(this.o.entity)
      .createQueryBuilder(alias)
      .where(`${alias}.companyId = :companyId`, { companyId })
      .andWhere(`${alias}.deletedAt IS NULL`);
  }

  /** One live row of the company, else 404; `lock` takes a row lock (inside a transaction). */
  async find(companyId: string, id: string, m: EntityManager = this.ds.manager, lock = false): Promise<E> {
    const row = await m.getRepository(this.o.entity).findOne({
      where: { id, companyId, deletedAt: IsNull() } as never,
      ...(lock ? { lock: { mode: 'pessimistic_write' as const } } : {}),
    });
    if (!row) throw ApiError.notFound(this.o.what);
    return row;
  }

  async create(actor: Actor, companyId: string, values: Partial<E>, hooks?: WriteHooks<E> | AfterSave<E>): Promise<E> {
    const { before, after } = hooksOf(hooks);
    return this.write(async (m) => {
      await before?.(m, null);
      await this.beforeWrite(m, companyId, null, values);
      const row = await m.save(m.create(this.o.entity, { ...defined(values), companyId } as never) as E);
      await after?.(m, row);
      await recordEvents(m, this.event('created', row, actor));
      return row;
    });
  }

  async update(actor: Actor, companyId: string, id: string, values: Partial<E>, hooks?: WriteHooks<E> | AfterSave<E>): Promise<E> {
    const { before, after } = hooksOf(hooks);
    const nulls = Object.entries(values)
      .filter(([k, v]) => v === null && !this.o.nullable?.includes(k as keyof E & string))
      .map(([k]) => snake(k));
    if (nulls.length) throw ApiError.validation(Object.fromEntries(nulls.map((k) => [k, ['must not be null']])));
    return this.write(async (m) => {
      const row = await this.find(companyId, id, m, true);
      await before?.(m, row);
      await this.beforeWrite(m, companyId, id, values);
      Object.assign(row, defined(values));
      row.updatedAt = new Date();
      const saved = await m.save(row);
      await after?.(m, saved);
      await recordEvents(m, this.event('updated', saved, actor, { fields: Object.keys(defined(values)).map(snake) }));
      return saved;
    });
  }

  /** Soft delete; `inUse` answers whether live records still use the row (→ 409 IN_USE). */
  async remove(actor: Actor, companyId: string, id: string, inUse?: (m: EntityManager, row: E) => Promise<boolean>): Promise<void> {
    await this.write(async (m) => {
      const row = await this.find(companyId, id, m, true);
      if (await inUse?.(m, row)) throw ApiError.inUse(this.o.what);
      await m.getRepository(this.o.entity).update({ id } as never, { deletedAt: new Date(), ...(this.o.singleDefault ? { isDefault: false } : {}) } as never);
      await recordEvents(m, this.event('deleted', row, actor));
    });
  }

  private event(what: string, row: E, actor: Actor, payload: Record<string, unknown> = {}) {
    return { type: `${this.o.event}.${what}`, aggregateType: this.o.event, aggregateId: row.id, companyId: row.companyId, actorId: actor.id, payload };
  }

  private async beforeWrite(m: EntityManager, companyId: string, id: string | null, values: Partial<E>): Promise<void> {
    const u = this.o.unique;
    const text = u ? (values[u.property] as unknown) : undefined;
    if (u && typeof text === 'string') {
      const [dup] = await m.query(
        `SELECT 1 FROM ${this.o.table} WHERE company_id = $1 AND lower(${u.column}) = lower($2) AND deleted_at IS NULL AND id IS DISTINCT FROM $3 LIMIT 1`,
        [companyId, text, id],
      );
      if (dup) throw u.error();
    }
    if (this.o.singleDefault && (values as { isDefault?: boolean }).isDefault === true) {
      // Serialises default changes per company, so that two requests cannot both leave a default.
      await m.query(`SELECT 1 FROM companies WHERE id = $1 FOR UPDATE`, [companyId]);
      await m.query(`UPDATE ${this.o.table} SET is_default = false, updated_at = now() WHERE company_id = $1 AND is_default AND deleted_at IS NULL AND id IS DISTINCT FROM $2`, [
        companyId,
        id,
      ]);
    }
  }

  private async write<T>(work: (m: EntityManager) => Promise<T>): Promise<T> {
    try {
      return await this.ds.transaction(work);
    } catch (e) {
      const constraint = (e as { constraint?: string; driverError?: { constraint?: string } }).constraint ?? (e as { driverError?: { constraint?: string } }).driverError?.constraint;
      if (e instanceof QueryFailedError && this.o.unique && constraint === this.o.unique.index) throw this.o.unique.error();
      throw e;
    }
  }
}

/**
 * Body references must be the company's live rows (share-locked until the commit, so that they
 * cannot be deleted meanwhile): the missing ones are 422 with their field names
 * (e.g. `items.0.asset_specification_id: ['not found']`).
 */
export async function assertOwned(
  m: EntityManager,
  table: 'asset_specifications' | 'waste_types' | 'lots' | 'truck_types',
  companyId: string,
  refs: { field: string; id: string | null | undefined }[],
): Promise<void> {
  const ids = [...new Set(refs.map((r) => r.id).filter((id): id is string => !!id))];
  if (!ids.length) return;
  const rows: { id: string }[] = await m.query(`SELECT id FROM ${table} WHERE company_id = $1 AND id = ANY($2::uuid[]) AND deleted_at IS NULL FOR SHARE`, [companyId, ids]);
  const found = new Set(rows.map((r) => r.id));
  const errors: FieldErrors = {};
  for (const r of refs) if (r.id && !found.has(r.id)) errors[r.field] = ['not found'];
  if (Object.keys(errors).length) throw ApiError.validation(errors);
}

/** Replaces a join table's rows for one owner (e.g. a promotion's specifications). */
export async function replaceLinks(m: EntityManager, table: string, ownerColumn: string, ownerId: string, ids: string[]): Promise<void> {
  await m.query(`DELETE FROM ${table} WHERE ${ownerColumn} = $1`, [ownerId]);
  if (ids.length) await m.query(`INSERT INTO ${table} (${ownerColumn}, asset_specification_id) SELECT $1, unnest($2::uuid[])`, [ownerId, ids]);
}

/** The specification ids linked to each owner, for a page of owners. */
export async function linkedSpecs(m: EntityManager, table: string, ownerColumn: string, ownerIds: string[]): Promise<Map<string, string[]>> {
  const out = new Map<string, string[]>(ownerIds.map((id) => [id, []]));
  if (!ownerIds.length) return out;
  const rows: { owner: string; spec: string }[] = await m.query(
    `SELECT l.${ownerColumn} AS owner, l.asset_specification_id AS spec FROM ${table} l WHERE l.${ownerColumn} = ANY($1::uuid[]) ORDER BY l.asset_specification_id`,
    [ownerIds],
  );
  for (const r of rows) out.get(r.owner)?.push(r.spec);
  return out;
}
