import { ExecutionContext } from '@nestjs/common';
import { pipelessParam } from '../../common/http/pipeless-param';

/** The client address as Express resolves it (honours TRUST_PROXY), or null. */
export const ClientIp = pipelessParam((_data: unknown, ctx: ExecutionContext): string | null => {
  return ctx.switchToHttp().getRequest<{ ip?: string }>().ip ?? null;
});
