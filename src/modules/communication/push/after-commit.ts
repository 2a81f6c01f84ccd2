import { Injectable, Logger, OnModuleInit } from '@nestjs/common';
import { EntitySubscriberInterface, QueryRunner, TransactionCommitEvent, TransactionRollbackEvent } from 'typeorm';
import { UnitOfWork } from '../../../database/unit-of-work';

/** A callback waiting for its transaction (or savepoint) level to commit. */
interface Pending {
  depth: number;
  fn: () => void;
}

const KEY = 'communication:afterCommit';
const logger = new Logger('AfterCommit');

/** TypeORM's nesting level of a query runner (1 in a transaction, 2 in its first savepoint, …); protected in its typings. */
const depthOf = (qr: QueryRunner): number => (qr as unknown as { transactionDepth: number }).transactionDepth;
const pendingOf = (qr: QueryRunner): Pending[] | undefined => (qr.data as Record<string, Pending[] | undefined>)[KEY];

/**
 * Runs `fn` once the open unit of work (or the transaction of a given manager) has committed (at once outside one), never
 * when it, or the savepoint `fn` was registered in, rolls back. For work that must not be seen before
 * the data it announces is visible to others: live pushes sent from event subscribers (the relay runs a
 * subscriber in a savepoint of the delivery's transaction).
 */
export function afterCommit(unit: UnitOfWork | { queryRunner?: QueryRunner }, fn: () => void): void {
  const qr = unit instanceof UnitOfWork ? unit.manager.queryRunner : unit.queryRunner;
  if (!qr?.isTransactionActive) {
    fn();
    return;
  }
  const data = qr.data as Record<string, Pending[] | undefined>;
  (data[KEY] ??= []).push({ depth: depthOf(qr), fn });
}

/** The TypeORM subscriber behind `afterCommit`, added to the DataSource at start. */
class AfterCommitSubscriber implements EntitySubscriberInterface {
  afterTransactionCommit(e: TransactionCommitEvent): void {
    const qr = e.queryRunner;
    const pending = pendingOf(qr);
    if (!pending) return;
    if (qr.isTransactionActive) {
      // A savepoint released: its callbacks now wait for the enclosing level.
      const depth = depthOf(qr);
      for (const p of pending) p.depth = Math.min(p.depth, depth);
      return;
    }
    delete (qr.data as Record<string, unknown>)[KEY];
    for (const p of pending) {
      try {
        p.fn();
      } catch (err) {
        logger.error({ msg: 'after-commit callback failed', error: (err as Error).message });
      }
    }
  }

  afterTransactionRollback(e: TransactionRollbackEvent): void {
    const qr = e.queryRunner;
    const pending = pendingOf(qr);
    if (!pending) return;
    const data = qr.data as Record<string, Pending[] | undefined>;
    if (!qr.isTransactionActive) {
      delete data[KEY];
      return;
    }
    const depth = depthOf(qr);
    data[KEY] = pending.filter((p) => p.depth <= depth);
  }
}

/** Adds the after-commit subscriber to this application's DataSource. */
@Injectable()
export class AfterCommitHooks implements OnModuleInit {
  constructor(private readonly uow: UnitOfWork) {}

  onModuleInit(): void {
    const subscribers = this.uow.ds.subscribers;
    if (!subscribers.some((s) => s instanceof AfterCommitSubscriber)) subscribers.push(new AfterCommitSubscriber());
  }
}
