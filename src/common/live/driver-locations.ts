import { Injectable, Logger } from '@nestjs/common';

/** A driver's location point, as dispatch stored it (for a job in progress). */
export interface DriverLocationPoint {
  companyId: string;
  driverId: string;
  jobId: string;
  orderId: string;
  lat: number;
  lng: number;
  recordedAt: Date;
}

/** What receives the points (the communication module's live push registers one at start). */
export interface DriverLocationSink {
  driverLocation(point: DriverLocationPoint): void | Promise<void>;
}

/**
 * Hands the location points drivers send to whoever shows them live, without dispatch knowing who:
 * dispatch calls `publish` after the point's transaction committed; the live push module (a higher
 * layer) `register`s at start. Locations are not domain events (one a second per driver would flood the
 * outbox): best effort, in process, never failing the request. Without a registered sink nothing happens.
 */
@Injectable()
export class DriverLocations {
  private readonly logger = new Logger('DriverLocations');
  private readonly sinks: DriverLocationSink[] = [];

  register(sink: DriverLocationSink): void {
    if (!this.sinks.includes(sink)) this.sinks.push(sink);
  }

  publish(point: DriverLocationPoint): void {
    for (const sink of this.sinks) {
      Promise.resolve()
        .then(() => sink.driverLocation(point))
        .catch((e: unknown) => this.logger.warn({ msg: 'driver location not published', error: (e as Error).message }));
    }
  }
}
