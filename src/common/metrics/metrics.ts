import { Injectable } from '@nestjs/common';
import { collectDefaultMetrics, Gauge, Histogram, Registry } from 'prom-client';
import { DataSource } from 'typeorm';
import type { PostgresDriver } from 'typeorm/driver/postgres/PostgresDriver';

/**
 * The Prometheus metrics of one application (its own registry: tests run several apps in one process):
 * request durations by route pattern and status, the event relay's backlog and lag (read from the
 * outbox when scraped), the database pool, and Node's process metrics. Served by `GET /metrics`.
 */
@Injectable()
export class Metrics {
  readonly registry = new Registry();
  private readonly requests = new Histogram({
    name: 'http_request_duration_seconds',
    help: 'HTTP requests by method, route pattern and status',
    labelNames: ['method', 'route', 'status'] as const,
    buckets: [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5],
    registers: [this.registry],
  });

  constructor(private readonly ds: DataSource) {
    collectDefaultMetrics({ register: this.registry });
    // One query per scrape for both outbox gauges.
    let pending: Promise<{ backlog: number; lag: number | null } | null> | null = null;
    const outbox = () =>
      (pending ??= this.ds
        .query<{ backlog: number; lag: number | null }[]>(`SELECT count(*)::int AS backlog, extract(epoch FROM now() - min(created_at))::float8 AS lag FROM outbox_events WHERE published_at IS NULL`)
        .then((rows) => rows[0] ?? null)
        .catch(() => null)
        .finally(() => setImmediate(() => (pending = null))));
    new Gauge({
      name: 'outbox_relay_lag_seconds',
      help: 'Age of the oldest event the relay has not published yet (0 when none waits)',
      registers: [this.registry],
      async collect() {
        this.set((await outbox())?.lag ?? 0);
      },
    });
    new Gauge({
      name: 'outbox_relay_backlog_events',
      help: 'Events the relay has not published yet',
      registers: [this.registry],
      async collect() {
        this.set((await outbox())?.backlog ?? 0);
      },
    });
    const pool = () => (this.ds.driver as PostgresDriver).master as { totalCount: number; idleCount: number; waitingCount: number } | undefined;
    new Gauge({
      name: 'db_pool_connections',
      help: 'Database pool connections by state (in_use, idle) and requests waiting for one',
      labelNames: ['state'] as const,
      registers: [this.registry],
      collect() {
        const p = pool();
        if (!p) return;
        this.set({ state: 'in_use' }, p.totalCount - p.idleCount);
        this.set({ state: 'idle' }, p.idleCount);
        this.set({ state: 'waiting' }, p.waitingCount);
      },
    });
  }

  /** A finished request's duration (`requestEdge` calls it when the response is finished). */
  observe(method: string, route: string, status: number, seconds: number): void {
    this.requests.observe({ method, route, status: String(status) }, seconds);
  }
}
