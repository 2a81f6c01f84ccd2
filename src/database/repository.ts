import { Injectable } from '@nestjs/common';
import { createHash } from 'node:crypto';
import { EntityManager, ObjectLiteral, SelectQueryBuilder } from 'typeorm';
import { preparedThrough } from './prepared-query';
import { UnitOfWork } from './unit-of-work';

/**
 * A module's repository: the only place its SQL lives (docs/data-layer.md). It takes its manager from
 * the unit of work, so a call made inside a service's `uow.transaction(…)` joins that transaction and
 * one made outside reads from the pool; no manager is passed down. A repository names only its own
 * module's tables (`test/project/data-layer.spec.ts`), takes a `Scope` (or an explicit system scope) for
 * a tenant table, and leaves rules to the service:
 *
 * ```ts
 * @Injectable()
 * export class QrCodeRepository extends ModuleRepository {
 *   findForScope(scope: Scope, id: string) { return findScoped(this.m, QrCode, scope, id, { what: 'QR code' }); }
 * }
 * ```
 */
@Injectable()
export abstract class ModuleRepository {
  constructor(protected readonly uow: UnitOfWork) {}

  /** The open unit's manager (it sees the unit's own writes), else the pool's. */
  protected get m(): EntityManager {
    return this.uow.manager;
  }

  /** The open unit's manager, for a statement that must run inside one (a row lock, a write of several rows that belong together). */
  protected get locked(): EntityManager {
    if (!this.uow.active) throw new Error(`${this.constructor.name}: a row lock or a multi-statement write outside a unit of work (open it with UnitOfWork#transaction in the service)`);
    return this.uow.manager;
  }

  /** SQL text with positional parameters, through the unit (or the pool). */
  protected sql<T>(text: string, params: unknown[] = []): Promise<T[]> {
    return this.m.query<T[]>(text, params);
  }

  /**
   * A hot statement as a named prepared statement (parsed and planned once per connection), through the unit
   * (or the pool): `name` unique per text. For statements on a hot path only; a report's statement is better
   * planned for its values each time.
   */
  protected prepared<T>(name: string, text: string, params: unknown[] = []): Promise<T[]> {
    return preparedThrough<T>(this.uow.ds, this.m, name, text, params);
  }

  /** `prepared` for a statement that must run inside the caller's unit (a row lock, a write of several rows that belong together). */
  protected preparedLocked<T>(name: string, text: string, params: unknown[] = []): Promise<T[]> {
    return preparedThrough<T>(this.uow.ds, this.locked, name, text, params);
  }

  /** A hot query builder's raw rows, prepared as `prepared` does (named after its SQL text, which is fixed per shape). */
  protected preparedRows<T>(prefix: string, qb: SelectQueryBuilder<ObjectLiteral>): Promise<T[]> {
    const [text, params] = qb.getQueryAndParameters();
    return preparedThrough<T>(this.uow.ds, this.m, nameOf(prefix, text), text, params);
  }

  /**
   * A hot query builder whose statements are prepared (named after their SQL text) instead of sent unnamed; run
   * it as usual (`getOne`, `getRawAndEntities`…): TypeORM still maps the rows to entities.
   */
  protected hot<Q extends SelectQueryBuilder<ObjectLiteral>>(prefix: string, qb: Q): Q {
    const ds = this.uow.ds;
    const m = this.m;
    return Object.assign(qb, {
      loadRawResults: (): Promise<unknown[]> => {
        const [text, params] = qb.getQueryAndParameters();
        return preparedThrough(ds, m, nameOf(prefix, text), text, params);
      },
    });
  }
}

/** Names by SQL text (hashing the text on every call cost 1.5 % of a placement's CPU). */
const names = new Map<string, string>();

/** A prepared statement's name: the prefix and a hash of its text (one name per shape). */
function nameOf(prefix: string, text: string): string {
  let name = names.get(text);
  if (!name) {
    name = `${prefix}_${createHash('sha1').update(text).digest('hex').slice(0, 16)}`;
    // Shapes are few (fixed per query builder); a text that embedded values would grow this without end, so it is bounded.
    if (names.size >= 2000) names.clear();
    names.set(text, name);
  }
  return name;
}
