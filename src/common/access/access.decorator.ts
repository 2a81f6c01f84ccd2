import { applyDecorators, SetMetadata } from '@nestjs/common';
import { ApiBearerAuth, ApiExtension, ApiResponse } from '@nestjs/swagger';
import { ErrorResponse } from '../http/openapi';
import { ACCESS_RULES, AccessCode, OPEN_CODES, THROTTLED_CODES } from './access-codes';

export const ACCESS_METADATA = 'haulops:access';

/**
 * Declares a route's seed access code. The global AccessGuard enforces it (a route without one is
 * refused), and it documents the route's security in OpenAPI (`x-access-code`).
 */
export function Access(code: AccessCode) {
  const decorators = [SetMetadata(ACCESS_METADATA, code), ApiExtension('x-access-code', code)];
  if (!OPEN_CODES.has(code)) {
    decorators.push(
      ApiBearerAuth('bearer'),
      ApiResponse({ status: 401, description: 'Missing, malformed, expired or revoked token.', type: ErrorResponse }),
      ApiResponse({ status: 403, description: `Access ${code}: ${ACCESS_RULES[code].description}`, type: ErrorResponse }),
    );
  }
  if (THROTTLED_CODES.has(code)) {
    decorators.push(ApiResponse({ status: 429, description: 'Throttled: 5 requests a minute per client address; see `Retry-After`.', type: ErrorResponse }));
  }
  return applyDecorators(...decorators);
}
