import { applyDecorators, Header, HttpCode } from '@nestjs/common';
import { ApiOperation, ApiResponse } from '@nestjs/swagger';

/** The methods every onboarding path answers (each path has all six). */
export const ONBOARDING_METHODS = ['GET', 'POST', 'PUT', 'PATCH', 'DELETE', 'OPTIONS'] as const;
export const ONBOARDING_ALLOW = ONBOARDING_METHODS.join(', ');

/**
 * An OPTIONS route (RFC 9110 §9.3.7): 204 without a body, with `Allow` listing the path's methods.
 * A browser's CORS preflight (an OPTIONS with `Access-Control-Request-Method`) never reaches it: the
 * CORS middleware answers those, without a token (src/app.setup.ts).
 */
export function AllowOptions(what: string) {
  return applyDecorators(
    ApiOperation({
      summary: `The methods of ${what} (Allow header)`,
      description:
        `Answers 204 without a body and \`Allow: ${ONBOARDING_ALLOW}\`. ` +
        'A browser CORS preflight (with `Access-Control-Request-Method`) is answered by the CORS layer instead, without a token.',
    }),
    ApiResponse({
      status: 204,
      description: 'No content; `Allow` lists the methods of this path.',
      headers: { Allow: { description: 'The methods this path answers.', schema: { type: 'string', example: ONBOARDING_ALLOW } } },
    }),
    HttpCode(204),
    Header('Allow', ONBOARDING_ALLOW),
  );
}
