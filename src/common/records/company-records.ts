import { Type } from '@nestjs/common';
import { DataSource, EntityManager, IsNull, SelectQueryBuilder } from 'typeorm';
import type { Actor } from '../access/actor';
import { ApiError, FieldErrors } from '../http/api-error';
import { snake } from '../../database/snake-naming.strategy';
import { recordEvents } from '../outbox/outbox';
import { violatedIndex } from '../../database/pg-errors';

/** A company-owned, soft-deleted row. */
export interface CompanyRow {
  id: string;
  companyId: string;
  createdAt: Date;
  updatedAt: Date;
  deletedAt: Date | null;
}

/** Text unique per company, case-insensitive, among live rows: pre-checked and mapped from its unique index (409 `code`). */
export interface UniqueText<E> {
  property: keyof E & string;
  index: string;
  code: string;
  message: string;
}

export interface CompanyRecordsOptions<E> {
  entity: Type<E>;
  /** Human name for messages ("Waste type"). */
  what: string;
  /** Event prefix and aggregate type ("waste_type" → waste_type.created, .updated, .deleted). */
  event: string;
  /** Properties that an update may set to null; any other null is a 422 (a PUT may omit a field, not null it). */
  nullable?: (keyof E & string)[];
  /** `is_default`: at most one per company; setting it clears the others. */
  singleDefault?: boolean;
  unique?: UniqueText<E>[];
  /** Whether live records still use the row: deleting it is then 409 IN_USE. */
  inUse?: (m: EntityManager, row: E) => Promise<boolean>;
}

/** Run inside the write's transaction: `before` the row is written (`current`: the locked row on update, null on create), `after` it is saved (children). */
export interface WriteHooks<E, Current extends E | null> {
  before?: (m: EntityManager, current: Current) => Promise<void> | void;
  after?: (m: EntityManager, row: E) => Promise<void>;
}

/** Drops undefined values, so that a partial update leaves absent fields alone. */
export function defined<T extends object>(values: T): Partial<T> {
  return Object.fromEntries(Object.entries(values).filter(([, v]) => v !== undefined)) as Partial<T>;
}

/**
 * Create, read, update and soft delete of one company-owned table: tenancy (another company's row is
 * a 404), required fields, unique text, the single default flag, IN_USE on delete, and events in the
 * same transaction. Each module's service adds its list filters, references and children.
 */
export class CompanyRecords<E extends CompanyRow> {
  constructor(
    private readonly ds: DataSource,
    private readonly o: CompanyRecordsOptions<E>,
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

  async create(actor: Actor, companyId: string, values: Partial<E>, hooks: WriteHooks<E, null> = {}): Promise<E> {
    return this.write(async (m) => {
      await hooks.before?.(m, null);
      await this.beforeWrite(m, companyId, null, values);
      const given = defined(values);
      const row = await m.save(m.create(this.o.entity, { ...given, companyId } as never) as E);
      await hooks.after?.(m, row);
      await this.recordEvent(m, actor, row, 'created', { fields: Object.keys(given).map(snake) });
      return row;
    });
  }

  async update(actor: Actor, companyId: string, id: string, values: Partial<E>, hooks: WriteHooks<E, E> = {}): Promise<E> {
    const nulls = Object.entries(values)
      .filter(([k, v]) => v === null && !this.o.nullable?.includes(k as keyof E & string))
      .map(([k]) => snake(k));
    if (nulls.length) throw ApiError.validation(Object.fromEntries(nulls.map((k) => [k, ['must not be null']])));
    return this.write(async (m) => {
      const row = await this.find(companyId, id, m, true);
      await hooks.before?.(m, row);
      await this.beforeWrite(m, companyId, id, values);
      const changes = defined(values);
      if (Object.keys(changes).length) Object.assign(row, changes, { updatedAt: new Date() });
      const saved = await m.save(row);
      await hooks.after?.(m, saved);
      await this.recordEvent(m, actor, saved, 'updated', { fields: Object.keys(changes).map(snake) });
      return saved;
    });
  }

  /** Soft delete (409 IN_USE while `inUse` says so). */
  async remove(actor: Actor, companyId: string, id: string): Promise<void> {
    await this.write(async (m) => {
      const row = await this.find(companyId, id, m, true);
      if (await this.o.inUse?.(m, row)) throw ApiError.inUse(this.o.what);
      await m.getRepository(this.o.entity).update({ id } as never, { deletedAt: new Date(), ...(this.o.singleDefault ? { isDefault: false } : {}) } as never);
      await this.recordEvent(m, actor, row, 'deleted');
    });
  }

  /** Records `<event>.<what>` (e.g. `asset.status_changed`) about a row, in the caller's transaction. */
  recordEvent(m: EntityManager, actor: Actor, row: Pick<CompanyRow, 'id' | 'companyId'>, what: string, payload: Record<string, unknown> = {}): Promise<void> {
    return recordEvents(m, { type: `${this.o.event}.${what}`, aggregateType: this.o.event, aggregateId: row.id, companyId: row.companyId, actorId: actor.id, payload });
  }

  private async beforeWrite(m: EntityManager, companyId: string, id: string | null, values: Partial<E>): Promise<void> {
    const meta = m.getRepository(this.o.entity).metadata;
    for (const u of this.o.unique ?? []) {
      const text = values[u.property] as unknown;
      if (typeof text !== 'string') continue;
      const column = meta.findColumnWithPropertyName(u.property)!.databaseName;
      const [dup] = await m.query(
        `SELECT 1 FROM ${meta.tableName} WHERE company_id = $1 AND lower(${column}) = lower($2) AND deleted_at IS NULL AND id IS DISTINCT FROM $3 LIMIT 1`,
        [companyId, text, id],
      );
      if (dup) throw ApiError.conflict(u.code, u.message);
    }
    if (this.o.singleDefault && (values as { isDefault?: boolean }).isDefault === true) {
      // Serialises default changes per company, so that two requests cannot both leave a default.
      await m.query(`SELECT 1 FROM companies WHERE id = $1 FOR UPDATE`, [companyId]);
      await m.query(`UPDATE ${meta.tableName} SET is_default = false, updated_at = now() WHERE company_id = $1 AND is_default AND deleted_at IS NULL AND id IS DISTINCT FROM $2`, [
        companyId,
        id,
      ]);
    }
  }

  /** A transaction whose unique-index violation (a race past the pre-check) is that field's 409. */
  private async write<T>(work: (m: EntityManager) => Promise<T>): Promise<T> {
    try {
      return await this.ds.transaction(work);
    } catch (e) {
      const u = this.violated(e);
      if (u) throw ApiError.conflict(u.code, u.message);
      throw e;
    }
  }

  /** The unique text whose index `e` violates; the first one when the driver does not name the index. */
  private violated(e: unknown): UniqueText<E> | undefined {
    const index = violatedIndex(e);
    if (index === undefined) return undefined;
    return index ? this.o.unique?.find((u) => u.index === index) : this.o.unique?.[0];
  }
}

/** Tables whose rows a body may reference by id (company-owned, soft-deleted). */
export type OwnedTable = 'asset_categories' | 'asset_styles' | 'asset_specifications' | 'waste_types' | 'lots' | 'stations' | 'trucks' | 'truck_types' | 'customer_addresses';

/**
 * Body references must be the company's live rows (share-locked until the commit, so that they
 * cannot be deleted meanwhile): the missing ones are 422 with their field names
 * (e.g. `items.0.asset_specification_id: ['not found']`).
 */
export async function assertOwned(m: EntityManager, table: OwnedTable, companyId: string, refs: { field: string; id: string | null | undefined }[]): Promise<void> {
  const ids = [...new Set(refs.map((r) => r.id).filter((id): id is string => !!id))];
  if (!ids.length) return;
  const rows: { id: string }[] = await m.query(`SELECT id FROM ${table} WHERE company_id = $1 AND id = ANY($2::uuid[]) AND deleted_at IS NULL FOR SHARE`, [companyId, ids]);
  const found = new Set(rows.map((r) => r.id));
  const errors: FieldErrors = {};
  for (const r of refs) if (r.id && !found.has(r.id.toLowerCase())) errors[r.field] = ['not found'];
  if (Object.keys(errors).length) throw ApiError.validation(errors);
}
