import { Controller, Get, Optional } from '@nestjs/common';
import { ApiProperty, ApiTags } from '@nestjs/swagger';
import { Access } from '../../common/access/access.decorator';
import { ApiError } from '../../common/http/api-error';
import { Endpoint } from '../../common/http/openapi';
import { RedisThrottlerStorage } from '../../common/throttle/redis-throttler.storage';
import { DatabaseProbe } from './database-probe.repository';

class HealthDto {
  @ApiProperty({ example: 'ok' }) status: string;
  @ApiProperty({ example: 12.5, description: 'Seconds since the process started.' }) uptime: number;
}

class ReadyDto {
  @ApiProperty({ example: 'ready' }) status: string;
  @ApiProperty({ example: 'postgres', enum: ['postgres', 'embedded'] }) database: string;
  @ApiProperty({ example: 'up', enum: ['up', 'not_configured'], description: 'Redis (throttle counts, live push across instances) when REDIS_URL is set.' }) redis: string;
}

/** How long /ready waits for Redis's PONG. */
const REDIS_TIMEOUT_MS = 1000;

/** Documented extensions outside the seed: liveness and readiness probes. */
@ApiTags('Health')
@Controller()
export class HealthController {
  constructor(
    private readonly database: DatabaseProbe,
    @Optional() private readonly throttleStore?: RedisThrottlerStorage,
  ) {}

  @Get('health')
  @Access('PUB')
  @Endpoint({ summary: 'Liveness: the process answers', description: 'Extension (not in the seed).', type: HealthDto })
  health(): HealthDto {
    return { status: 'ok', uptime: Math.round(process.uptime() * 10) / 10 };
  }

  @Get('ready')
  @Access('PUB')
  @Endpoint({
    summary: 'Readiness: the database (and Redis, when configured) answer',
    description: `Extension (not in the seed). 503 \`DATABASE_UNAVAILABLE\` when the database does not answer, \`REDIS_UNAVAILABLE\` when REDIS_URL is set and Redis does not answer PING within ${REDIS_TIMEOUT_MS} ms.`,
    type: ReadyDto,
    errors: [503],
    codes: { 503: ['DATABASE_UNAVAILABLE', 'REDIS_UNAVAILABLE'] },
  })
  async ready(): Promise<ReadyDto> {
    try {
      await this.database.ping();
    } catch {
      throw new ApiError(503, 'DATABASE_UNAVAILABLE', 'The database is not reachable.');
    }
    const redis = this.throttleStore?.redis;
    if (redis) {
      let timer: NodeJS.Timeout | undefined;
      const pong = await Promise.race([redis.ping().catch(() => null), new Promise<null>((resolve) => (timer = setTimeout(() => resolve(null), REDIS_TIMEOUT_MS)))]);
      clearTimeout(timer);
      if (pong !== 'PONG') throw new ApiError(503, 'REDIS_UNAVAILABLE', 'Redis is not reachable.');
    }
    return { status: 'ready', database: this.database.kind, redis: redis ? 'up' : 'not_configured' };
  }
}
