import { pipelessParam } from '../../common/http/pipeless-param';

/** The client address as Express resolves it (honours TRUST_PROXY), or null. */
export const ClientIp = pipelessParam((_data: unknown, req: { ip?: string }): string | null => {
  return req.ip ?? null;
});
