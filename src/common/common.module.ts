import { RouteIndex } from './http/route-index';
import { DynamicModule, Global, Module } from '@nestjs/common';
import { APP_FILTER, APP_GUARD, DiscoveryModule } from '@nestjs/core';
import { JwtModule } from '@nestjs/jwt';
import { PassportModule } from '@nestjs/passport';
import { ThrottlerModule } from '@nestjs/throttler';
import { ScheduleModule } from '@nestjs/schedule';
import { AppConfig } from '../config/app-config';
import { AccessGuard } from './access/access.guard';
import { ActorResolver, JwtStrategy, jwtSecretKey } from './access/jwt.strategy';
import { CallerChanges } from './access/caller-changes';
import { ErrorFilter } from './http/error.filter';
import { IdempotencyInterceptor } from './idempotency/idempotent';
import { MailService } from './mail/mail.service';
import { OutboxRelay } from './outbox/outbox-relay';
import { OutboundHttpClient, outboundClientFor } from './http/outbound';
import { DriverLocations } from './live/driver-locations';
import { InUseRegistry } from './records/in-use';
import { PlanLimits } from './records/plan-limits';
import { Metrics } from './metrics/metrics';
import { MetricsController } from './metrics/metrics.controller';
import { RedisThrottlerStorage } from './throttle/redis-throttler.storage';
import { ThrottleGuard } from './throttle/throttle.guard';
import { UnitOfWork } from '../database/unit-of-work';

/**
 * The conventions every module relies on, registered once: configuration, access guard (global,
 * default deny), JWT, throttle (Redis-backed when REDIS_URL is set), error filter, success envelope,
 * the unit of work, idempotency, mail, the outbound HTTP client for user-supplied URLs, the in-use registry, the outbox relay and the metrics (GET /metrics).
 */
@Global()
@Module({})
export class CommonModule {
  static forRoot(config: AppConfig): DynamicModule {
    const redisStorage = config.redisUrl ? new RedisThrottlerStorage(config.redisUrl, config.redisPrefix) : undefined;
    return {
      module: CommonModule,
      controllers: [MetricsController],
      imports: [
        DiscoveryModule,
        PassportModule,
        JwtModule.register({ secret: jwtSecretKey(config.jwtSecret), signOptions: { algorithm: 'HS256' }, verifyOptions: { algorithms: ['HS256'] } }),
        ThrottlerModule.forRoot({
          throttlers: [{ name: 'default', ttl: config.throttleTtlMs, limit: config.throttleLimit }],
          ...(redisStorage ? { storage: redisStorage } : {}),
        }),
        // Scheduled jobs (`@Cron`/`@Interval` methods of the modules' providers), registered once; SCHEDULER_ENABLED=false leaves them unscheduled.
        ScheduleModule.forRoot({ cronJobs: config.schedulerEnabled, intervals: config.schedulerEnabled, timeouts: config.schedulerEnabled }),
      ],
      providers: [
        { provide: AppConfig, useValue: config },
        ...(redisStorage ? [{ provide: RedisThrottlerStorage, useValue: redisStorage }] : []),
        JwtStrategy,
        CallerChanges,
        ActorResolver,
        ThrottleGuard,
        MailService,
        OutboxRelay,
        { provide: OutboundHttpClient, useFactory: () => outboundClientFor(config) },
        InUseRegistry,
        DriverLocations,
        PlanLimits,
        Metrics,
        UnitOfWork,
        IdempotencyInterceptor,
        // The Express routes indexed by their leading path segments once registered (src/common/http/route-index.ts).
        RouteIndex,
        { provide: APP_GUARD, useClass: AccessGuard },
        { provide: APP_FILTER, useClass: ErrorFilter },
      ],
      exports: [AppConfig, UnitOfWork, JwtModule, ActorResolver, MailService, OutboxRelay, OutboundHttpClient, IdempotencyInterceptor, ThrottleGuard, InUseRegistry, DriverLocations, PlanLimits, Metrics, ...(redisStorage ? [RedisThrottlerStorage] : [])],
    };
  }
}
