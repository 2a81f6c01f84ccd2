import type { EntityManager } from 'typeorm';

/**
 * A record of a write made on someone's behalf (the platform's audit log, README "Platform
 * administration"), handed to a service's write method by the module that keeps the log (dependency
 * inversion: the service knows nothing of it). The service calls it inside the write's transaction,
 * after the write, with the record's view before (null on create) and after, so that the entry commits
 * or rolls back with the change.
 */
export type WriteAudit = (m: EntityManager, change: { id: string; before: object | null; after: object }) => Promise<void>;
