import { Type } from '@nestjs/common';
import { DataSource, EntityManager, SelectQueryBuilder } from 'typeorm';
import { Scope } from '../access/scope';
import { assertReachable, type BodyRef, companyOfRow, findScoped, PlatformReach, reachQuery } from '../access/tenant-policy';
import { ApiError } from '../http/api-error';
import { snake } from '../../database/snake-naming.strategy';
import type { EventNamed, EventPayload, EventVerb, RecordEventPrefix } from '../outbox/event-catalogue';
import { recordEventOf, recordEvents } from '../outbox/outbox';
import { violatedIndex } from '../../database/pg-errors';
import type { WriteAudit } from './write-audit';
import { runUnit } from '../../database/unit-of-work';

/** A company-owned, soft-deleted row (its entity declares `@Tenant`). */
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

export interface CompanyRecordsOptions<E, P extends RecordEventPrefix = RecordEventPrefix> {
  entity: Type<E>;
  /** Human name for messages ("Waste type"). */
  what: string;
  /**
   * Event prefix and aggregate type ("waste_type" → waste_type.created, .updated, .deleted). Not
   * inferred: a service declares `CompanyRecords<Asset, 'asset'>` when it records its own verbs
   * (`recordEvent(…, 'status_changed', …)`), else any prefix of the catalogue will do.
   */
  event: NoInfer<P>;
  /** Properties that an update may set to null; any other null is a 422 (a PUT may omit a field, not null it). */
  nullable?: (keyof E & string)[];
  /** `is_default`: at most one per company; setting it clears the others. */
  singleDefault?: boolean;
  unique?: UniqueText<E>[];
  /** Whether live records still use the row: deleting it is then 409 IN_USE. */
  inUse?: (m: EntityManager, row: E) => Promise<boolean>;
  /** Values a new row starts with unless given (not listed as changed fields in the event). */
  defaults?: Partial<E>;
}

/** Run inside the write's transaction: `before` the row is written (`current`: the locked row on update, null on create), `after` it is saved (children). */
export interface WriteHooks<E, Current extends E | null> {
  before?: (m: EntityManager, current: Current) => Promise<void> | void;
  /** Checks the row as it will be written (given values applied), before it is saved. */
  prepare?: (m: EntityManager, row: E) => Promise<void> | void;
  after?: (m: EntityManager, row: E) => Promise<void>;
  /** Platform administration: the audit entry of the write, with the row's `view` before (null on create) and after. */
  audit?: { write: WriteAudit; view: (row: E) => object };
}

/** Drops undefined values, so that a partial update leaves absent fields alone. */
export function defined<T extends object>(values: T): Partial<T> {
  return Object.fromEntries(Object.entries(values).filter(([, v]) => v !== undefined)) as Partial<T>;
}

/** Who made a change: a caller (an `Actor`), or `{ id: null }` for the system (a relayed event without an actor). */
export type ActorRef = { readonly id: string | null };

/**
 * Create, read, update and soft delete of one company-owned table: tenancy (another company's row is
 * a 404), required fields, unique text, the single default flag, IN_USE on delete, and events in the
 * same transaction. Each module's service adds its list filters, references and children.
 */
export class CompanyRecords<E extends CompanyRow, P extends RecordEventPrefix = RecordEventPrefix> {
  constructor(
    private readonly ds: DataSource,
    private readonly o: CompanyRecordsOptions<E, P>,
  ) {}

  /** The company's live rows (or those an administrator's `reach` covers), for lists. */
  query(companyId: string | PlatformReach, alias: string, m: EntityManager = this.ds.manager): SelectQueryBuilder<E> {
    return reachQuery(m, this.o.entity, typeof companyId === 'string' ? Scope.company(companyId) : companyId, alias);
  }

  /** The company of a live row, or null: an administrator names a record by id alone. */
  companyOf(id: string, m: EntityManager = this.ds.manager): Promise<string | null> {
    return companyOfRow(m, this.o.entity, id);
  }

  /** One live row of the company, else 404; `lock` takes a row lock (inside a transaction). */
  find(companyId: string, id: string, m: EntityManager = this.ds.manager, lock = false): Promise<E> {
    return findScoped(m, this.o.entity, Scope.company(companyId), id, { what: this.o.what, lock });
  }

  /**
   * Body references to this table must be the company's live rows (share-locked until the commit);
   * the missing ones are 422 on their fields. The owning module's service exposes this to others.
   */
  assertOwned(m: EntityManager, companyId: string, refs: readonly BodyRef[]): Promise<void> {
    return assertReachable(m, this.o.entity, Scope.company(companyId), refs);
  }

  async create(actor: ActorRef, companyId: string, values: Partial<E>, hooks: WriteHooks<E, null> = {}): Promise<E> {
    return this.write(async (m) => {
      await hooks.before?.(m, null);
      await this.beforeWrite(m, companyId, null, values);
      const given = defined(values);
      const draft = m.create(this.o.entity, { ...this.o.defaults, ...given, companyId } as never) as E;
      await hooks.prepare?.(m, draft);
      const row = await m.save(draft);
      await hooks.after?.(m, row);
      await this.recordOwnEvent(m, actor, row, 'created', { fields: Object.keys(given).map(snake) });
      await hooks.audit?.write(m, { id: row.id, before: null, after: hooks.audit.view(row) });
      return row;
    });
  }

  async update(actor: ActorRef, companyId: string, id: string, values: Partial<E>, hooks: WriteHooks<E, E> = {}): Promise<E> {
    const nulls = Object.entries(values)
      .filter(([k, v]) => v === null && !this.o.nullable?.includes(k as keyof E & string))
      .map(([k]) => snake(k));
    if (nulls.length) throw ApiError.validation(Object.fromEntries(nulls.map((k) => [k, ['must not be null']])));
    return this.write(async (m) => {
      const row = await this.find(companyId, id, m, true);
      const before = hooks.audit ? hooks.audit.view(row) : null;
      await hooks.before?.(m, row);
      await this.beforeWrite(m, companyId, id, values);
      const changes = defined(values);
      if (Object.keys(changes).length) Object.assign(row, changes, { updatedAt: new Date() });
      await hooks.prepare?.(m, row);
      const saved = await m.save(row);
      await hooks.after?.(m, saved);
      await this.recordOwnEvent(m, actor, saved, 'updated', { fields: Object.keys(changes).map(snake) });
      await hooks.audit?.write(m, { id: saved.id, before, after: hooks.audit.view(saved) });
      return saved;
    });
  }

  /** Soft delete (409 IN_USE while `inUse` says so). */
  async remove(actor: ActorRef, companyId: string, id: string): Promise<void> {
    await this.write(async (m) => {
      const row = await this.find(companyId, id, m, true);
      if (await this.o.inUse?.(m, row)) throw ApiError.inUse(this.o.what);
      await m.getRepository(this.o.entity).update({ id } as never, { deletedAt: new Date(), ...(this.o.singleDefault ? { isDefault: false } : {}) } as never);
      await this.recordOwnEvent(m, actor, row, 'deleted');
    });
  }

  /** Records `<event>.<what>` (e.g. `asset.status_changed`, a catalogue name) about a row, in the caller's transaction. */
  recordEvent<V extends EventVerb<P>>(m: EntityManager, actor: ActorRef, row: Pick<CompanyRow, 'id' | 'companyId'>, what: V, payload: EventPayload<EventNamed<P, V>>): Promise<void> {
    return recordEventOf(m, this.o.event, what, payload, { aggregateType: this.o.event, aggregateId: row.id, companyId: row.companyId, actorId: actor.id });
  }

  /** `<event>.created|updated|deleted`, which every prefix has. */
  private recordOwnEvent(m: EntityManager, actor: ActorRef, row: Pick<CompanyRow, 'id' | 'companyId'>, what: 'created' | 'updated' | 'deleted', payload: { fields: string[] } | Record<string, never> = {}): Promise<void> {
    const prefix: RecordEventPrefix = this.o.event;
    return recordEvents(m, { type: `${prefix}.${what}`, aggregateType: prefix, aggregateId: row.id, companyId: row.companyId, actorId: actor.id, payload });
  }

  private async beforeWrite(m: EntityManager, companyId: string, id: string | null, values: Partial<E>): Promise<void> {
    const meta = m.getRepository(this.o.entity).metadata;
    for (const u of this.o.unique ?? []) {
      const text = values[u.property] as unknown;
      if (typeof text !== 'string') continue;
      const column = meta.findColumnWithPropertyName(u.property)!.databaseName;
      const [dup] = await m.query<{ '?column?': number }[]>(
        `SELECT 1 FROM ${meta.tableName} WHERE company_id = $1 AND lower(${column}) = lower($2) AND deleted_at IS NULL AND id IS DISTINCT FROM $3 LIMIT 1`,
        [companyId, text, id],
      );
      if (dup) throw ApiError.conflict(u.code, u.message);
    }
    if (this.o.singleDefault && (values as { isDefault?: boolean }).isDefault === true) {
      // Serialises default changes of this table per company (a transaction-scoped advisory lock), so
      // that two requests cannot both leave a default.
      await m.query(`SELECT pg_advisory_xact_lock(hashtext($1))`, [`${meta.tableName}.default:${companyId}`]);
      await m.query(`UPDATE ${meta.tableName} SET is_default = false, updated_at = now() WHERE company_id = $1 AND is_default AND deleted_at IS NULL AND id IS DISTINCT FROM $2`, [
        companyId,
        id,
      ]);
    }
  }

  /** A transaction whose unique-index violation (a race past the pre-check) is that field's 409. */
  private async write<T>(work: (m: EntityManager) => Promise<T>): Promise<T> {
    try {
      return await runUnit(this.ds, work);
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
