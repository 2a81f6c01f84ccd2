import { ExecutionContext, Injectable } from '@nestjs/common';
import { ThrottlerGuard } from '@nestjs/throttler';
import type { ThrottlerLimitDetail } from '@nestjs/throttler';

/**
 * The throttle of PUB-T and TOK-T routes (invoked by the AccessGuard, never globally): per client
 * address (req.ip, which honours TRUST_PROXY) per route. Adds `X-RateLimit-*` to the 429 as well.
 */
@Injectable()
export class ThrottleGuard extends ThrottlerGuard {
  protected async throwThrottlingException(context: ExecutionContext, detail: ThrottlerLimitDetail): Promise<void> {
    const res = context.switchToHttp().getResponse();
    this.setResponseHeader(res, 'X-RateLimit-Limit', detail.limit);
    this.setResponseHeader(res, 'X-RateLimit-Remaining', 0);
    this.setResponseHeader(res, 'X-RateLimit-Reset', detail.timeToBlockExpire);
    return super.throwThrottlingException(context, detail);
  }
}
