import { pipelessParam } from '../../../common/http/pipeless-param';
import type { ClientInfo } from './onboarding.service';

/** The caller's address (`req.ip`, honouring TRUST_PROXY) and user agent, for the terms acceptance record. */
export const CurrentClient = pipelessParam((_data: unknown, req: { ip?: string; socket?: { remoteAddress?: string }; headers: Record<string, string | string[] | undefined> }): ClientInfo => {
  const ua = req.headers['user-agent'];
  return { ip: req.ip ?? req.socket?.remoteAddress ?? 'unknown', userAgent: (Array.isArray(ua) ? ua[0] : ua) ?? null };
});
