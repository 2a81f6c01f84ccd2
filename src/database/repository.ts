import { Injectable } from '@nestjs/common';
import { EntityManager, ObjectLiteral, SelectQueryBuilder } from 'typeorm';
import type { EventType } from '../common/outbox/event-catalogue';
import { recordEvents, type DomainEvent } from '../common/outbox/outbox';
import { GenerateSql } from './generate-sql';
import { hotQueryAndParameters, preparedThrough, statementName } from './prepared-query';
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

  /**
   * Records domain events in the caller's unit (the transaction that makes the change; outside one it throws):
   * the outbox's INSERT, sent with the COMMIT where the unit can (src/common/outbox/outbox.ts).
   */
  @GenerateSql.skip("common's outbox insert (recordEvents), snapshotted with common")
  async recordEvents<T extends EventType>(...events: DomainEvent<T>[]): Promise<void> {
    await recordEvents(this.m, ...events);
  }

  /** SQL text with positional parameters, through the unit (or the pool). */
  protected sql<T>(text: string, params: unknown[] = []): Promise<T[]> {
    return this.m.query<T[]>(text, params);
  }

  /**
   * A hot statement as a named prepared statement, named after its text (parsed and planned once per connection
   * for each shape), through the unit (or the pool). For statements on a hot path, or built from a bounded set of
   * shapes (the reports); never for text that embeds values.
   */
  protected prepared<T>(prefix: string, text: string, params: unknown[] = []): Promise<T[]> {
    return preparedThrough<T>(this.uow.ds, this.m, statementName(prefix, text), text, params);
  }

  /** `prepared` for a statement that must run inside the caller's unit (a row lock, a write of several rows that belong together). */
  protected preparedLocked<T>(prefix: string, text: string, params: unknown[] = []): Promise<T[]> {
    return preparedThrough<T>(this.uow.ds, this.locked, statementName(prefix, text), text, params);
  }

  /** A hot query builder's raw rows, prepared as `prepared` does. */
  protected preparedRows<T>(prefix: string, qb: SelectQueryBuilder<ObjectLiteral>): Promise<T[]> {
    const [text, params] = hotQueryAndParameters(prefix, qb);
    return this.prepared<T>(prefix, text, params);
  }

  /**
   * A hot query builder whose statements are prepared as `prepared` does instead of sent unnamed; run it as usual
   * (`getOne`, `getRawAndEntities`…): TypeORM still maps the rows to entities. Its SQL text is built once per
   * shape (`hotQueryAndParameters`).
   */
  protected hot<Q extends SelectQueryBuilder<ObjectLiteral>>(prefix: string, qb: Q): Q {
    return Object.assign(qb, {
      loadRawResults: (): Promise<unknown[]> => {
        const [text, params] = hotQueryAndParameters(prefix, qb);
        return this.prepared(prefix, text, params);
      },
    });
  }
}
