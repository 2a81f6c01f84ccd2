import { OnApplicationShutdown } from '@nestjs/common';
import { ThrottlerStorage } from '@nestjs/throttler';
import type { ThrottlerLimitDetail } from '@nestjs/throttler';
type ThrottlerStorageRecord = Omit<ThrottlerLimitDetail, 'ttl' | 'limit' | 'key' | 'tracker'>;
import Redis from 'ioredis';

// Fixed window per key, counted atomically in Redis so that every server instance shares it.
const INCREMENT = `
local key = KEYS[1]
local blockKey = KEYS[2]
local ttl = tonumber(ARGV[1])
local limit = tonumber(ARGV[2])
local block = tonumber(ARGV[3])
local blocked = redis.call('PTTL', blockKey)
if blocked > 0 then
  local hits = tonumber(redis.call('GET', key) or '0')
  return {hits, math.max(redis.call('PTTL', key), 0), 1, blocked}
end
local hits = redis.call('INCR', key)
if hits == 1 then redis.call('PEXPIRE', key, ttl) end
local left = redis.call('PTTL', key)
if hits > limit then
  redis.call('SET', blockKey, '1', 'PX', block)
  return {hits, left, 1, block}
end
return {hits, left, 0, 0}
`;

/** Throttler counts in Redis (REDIS_URL), shared between instances. Times are returned in seconds. */
export class RedisThrottlerStorage implements ThrottlerStorage, OnApplicationShutdown {
  readonly redis: Redis;

  constructor(
    url: string,
    private readonly prefix: string,
  ) {
    this.redis = new Redis(url, { maxRetriesPerRequest: 2, enableOfflineQueue: true, lazyConnect: false });
    this.redis.defineCommand('throttleIncrement', { numberOfKeys: 2, lua: INCREMENT });
  }

  async increment(key: string, ttl: number, limit: number, blockDuration: number, throttlerName: string): Promise<ThrottlerStorageRecord> {
    const k = `${this.prefix}throttle:${throttlerName}:${key}`;
    const [hits, left, blocked, blockLeft] = (await (this.redis as unknown as {
      throttleIncrement(k1: string, k2: string, ttl: number, limit: number, block: number): Promise<number[]>;
    }).throttleIncrement(k, `${k}:blocked`, ttl, limit, blockDuration)) as number[];
    return {
      totalHits: hits,
      timeToExpire: Math.ceil(left / 1000),
      isBlocked: blocked === 1,
      timeToBlockExpire: Math.ceil(blockLeft / 1000),
    };
  }

  async onApplicationShutdown(): Promise<void> {
    await this.redis.quit().catch(() => this.redis.disconnect());
  }
}
