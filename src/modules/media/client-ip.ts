import { createParamDecorator, ExecutionContext } from '@nestjs/common';

/** The client address as Express resolves it (honours TRUST_PROXY), or null. */
export const ClientIp = createParamDecorator((_data: unknown, ctx: ExecutionContext): string | null => {
  return ctx.switchToHttp().getRequest<{ ip?: string }>().ip ?? null;
});
