import { INestApplication, Logger } from '@nestjs/common';
import type { Server } from 'node:http';
import { markDataFoldersClosing } from '../../database/data-folder-lock';
import { OutboxRelay } from '../outbox/outbox-relay';
import { DrainReport, httpDrainOf } from './http-drain';

export interface ShutdownOptions {
  /** Connections still open this long after the signal are destroyed (their requests counted as cut). */
  drainDeadlineMs: number;
  /** A kept-alive connection idle this long during the drain is closed. */
  idleGraceMs: number;
  /** The process exits (code 1) this long after the signal whatever happens. */
  exitDeadlineMs: number;
}

/** Within the usual 10 s between an orchestrator's SIGTERM and its SIGKILL. */
export const SHUTDOWN_DEFAULTS: ShutdownOptions = { drainDeadlineMs: 7000, idleGraceMs: 500, exitDeadlineMs: 9500 };

/**
 * On SIGTERM or SIGINT (once; a second signal is logged and ignored):
 *
 * 1. marks its embedded data folder's lock `closing` (a restart waits for it: docs/embedded-database.md);
 *    logs `shutdown started` (open connections, requests in progress);
 * 2. drains HTTP (`HttpDrain`: no new connections, every answer with `Connection: close`, idle
 *    keep-alive connections closed; requests already received are answered) while the outbox relay
 *    stops polling and finishes its batch;
 * 3. `app.close()`: the providers' shutdown hooks (relay, mail transport, Redis) and the database
 *    (the pool, and the embedded database's files);
 * 4. logs `shutdown finished` with the drain's figures and exits 0.
 *
 * A failure exits 1; so does passing `exitDeadlineMs` (logged as `shutdown timed out`).
 */
export function shutdownOnSignals(app: INestApplication<Server>, options: ShutdownOptions = SHUTDOWN_DEFAULTS): void {
  const logger = new Logger('Shutdown');
  let started: number | undefined;

  const shutdown = async (signal: NodeJS.Signals): Promise<void> => {
    const since = started!;
    const drain = httpDrainOf(app);
    logger.log({ msg: 'shutdown started', signal, ...drain.load() });
    setTimeout(() => {
      logger.error({ msg: 'shutdown timed out; exiting', signal, shutdown_ms: Date.now() - since });
      process.exit(1);
    }, options.exitDeadlineMs).unref();
    try {
      const relay = app.get(OutboxRelay, { strict: false });
      const [report] = await Promise.all<[Promise<DrainReport>, Promise<void>]>([
        drain.drain({ deadlineMs: options.drainDeadlineMs, idleGraceMs: options.idleGraceMs }),
        relay.stop(),
      ]);
      await app.close();
      logger.log({ msg: 'shutdown finished', signal, shutdown_ms: Date.now() - since, ...report });
      process.exit(0);
    } catch (e) {
      logger.error({ msg: 'shutdown failed', signal, shutdown_ms: Date.now() - since, error: e instanceof Error ? e.message : String(e) });
      process.exit(1);
    }
  };

  const onSignal = (signal: NodeJS.Signals) => {
    if (started !== undefined) {
      logger.warn({ msg: 'shutdown already under way', signal });
      return;
    }
    started = Date.now();
    // A server started now on the same embedded data folder waits for this one to close it, instead of being refused.
    markDataFoldersClosing();
    void shutdown(signal);
  };
  process.on('SIGTERM', onSignal);
  process.on('SIGINT', onSignal);
}
