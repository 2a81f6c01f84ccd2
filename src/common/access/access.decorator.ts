import { applyDecorators, SetMetadata } from '@nestjs/common';
import { ApiBearerAuth, ApiExtension, OpenAPIObject } from '@nestjs/swagger';
import { ApiErrors } from '../http/openapi';
import { ACCESS_RULES, AccessCode, OPEN_CODES, THROTTLED_CODES } from './access-codes';

export const ACCESS_METADATA = 'haulops:access';
export const EXTENSION_METADATA = 'haulops:extension';

/** The 401 codes of a token route (AccessGuard, ActorResolver). */
export const TOKEN_FAILURE_CODES = ['UNAUTHENTICATED', 'INVALID_TOKEN', 'TOKEN_EXPIRED', 'TOKEN_REVOKED'] as const;

/** The 403 codes AccessGuard answers for a code, read from its rule the way the guard enforces it. */
export function forbiddenCodes(code: AccessCode): string[] {
  if (OPEN_CODES.has(code)) return [];
  const rule = ACCESS_RULES[code];
  const codes = ['WRONG_ACTOR']; // an admin token off admin routes, or another actor type
  if (rule.roleRecord) codes.push(...(rule.actor === 'company' ? ['NO_COMPANY'] : ['NOT_A_MEMBER', 'NO_COMPANY']));
  if (rule.active) codes.push('USER_INACTIVE');
  if (rule.actor && rule.actor !== 'admin') codes.push('COMPANY_INACTIVE');
  if (rule.checkedIn) codes.push('NOT_CHECKED_IN');
  return codes;
}

/**
 * Declares a route's seed access code. The global AccessGuard enforces it (a route without one is
 * refused), and it documents the route's security in OpenAPI: `x-access-code`, bearer auth with the
 * 401/403 codes the guard can answer, 429 when throttled; open codes get `security: []` (see
 * `documentOpenAccess`).
 */
export function Access(code: AccessCode) {
  const decorators = [SetMetadata(ACCESS_METADATA, code), ApiExtension('x-access-code', code)];
  if (!OPEN_CODES.has(code)) {
    decorators.push(ApiBearerAuth('bearer'), ApiErrors({ 401: TOKEN_FAILURE_CODES, 403: forbiddenCodes(code) }));
  }
  if (THROTTLED_CODES.has(code)) decorators.push(ApiErrors({ 429: ['THROTTLED'] }));
  return applyDecorators(...decorators);
}

/**
 * Marks a route that is not in the seed (../shared/spec/routes.tsv) as a documented extension, with why
 * it exists, next to the route itself (README "Extensions"). The route conformance test
 * (test/common/access/routes.spec.ts) admits a mounted route outside the seed only with this decorator or
 * a line in test/routes-extensions.txt (routes no controller method declares), and refuses it on a seed route.
 */
export function Extension(why: string) {
  return SetMetadata(EXTENSION_METADATA, why);
}

/**
 * `security: []` on the operations of open codes (PUB, PUB-T, NONE): they need no token, which
 * decorators cannot say (the scanner drops an empty security list). Applied to the built document.
 */
export function documentOpenAccess(doc: OpenAPIObject): void {
  for (const item of Object.values(doc.paths)) {
    for (const op of Object.values(item)) {
      const code = (op as { 'x-access-code'?: AccessCode })?.['x-access-code'];
      if (code && OPEN_CODES.has(code)) (op as { security?: unknown[] }).security = [];
    }
  }
}
