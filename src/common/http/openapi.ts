import { applyDecorators, HttpCode, Type } from '@nestjs/common';
import { ApiExtraModels, ApiOperation, ApiProperty, ApiPropertyOptional, ApiResponse, getSchemaPath } from '@nestjs/swagger';

export class ErrorResponse {
  @ApiProperty({ example: false }) success: boolean;
  @ApiProperty({ example: 'The given data was invalid.' }) message: string;
  @ApiProperty({ example: 'VALIDATION_FAILED' }) code: string;
  @ApiPropertyOptional({ type: 'object', additionalProperties: { type: 'array', items: { type: 'string' } }, example: { email: ['must be an email'] } })
  errors?: Record<string, string[]>;
  @ApiProperty({ example: 'a3c1a7c2-8c2e-4f0b-9a53-0a4f5d1f2b7e' }) request_id: string;
}

export class PageMetaDto {
  @ApiProperty({ example: 1 }) page: number;
  @ApiProperty({ example: 20 }) per_page: number;
  @ApiProperty({ example: 57 }) total: number;
  @ApiProperty({ example: 3 }) last_page: number;
}

export interface EndpointOptions {
  summary: string;
  description?: string;
  /** Response data type; omit for `data: null`. */
  type?: Type<unknown>;
  /** The response is a paginated list of `type`. */
  list?: boolean;
  /** The response is a plain (unpaginated, bounded) array of `type`. */
  array?: boolean;
  /** Success status (default 200; 201 for creations). */
  status?: number;
  /** Error statuses this route can answer with besides the access rule's (e.g. [404, 409, 422]). */
  errors?: number[];
  /** The machine `code`s an error status can carry (listed in that response's description). */
  codes?: Partial<Record<number, string[]>>;
}

const ERROR_TEXT: Record<number, string> = {
  400: 'Malformed JSON.',
  404: 'Not found (absent, malformed id or another tenant\'s).',
  409: 'Conflict: illegal state change, duplicate or record in use.',
  413: 'Too large.',
  415: 'Unsupported media type.',
  422: 'Validation failed (per-field `errors`).',
  429: 'Throttled (`Retry-After`).',
};

/**
 * One decorator for a route's OpenAPI description and success status: summary, the success envelope
 * around `type` (or a paginated list of it), and the error envelope for each listed status.
 */
export function Endpoint(o: EndpointOptions) {
  const status = o.status ?? 200;
  const data = o.type
    ? o.list || o.array
      ? { type: 'array', items: { $ref: getSchemaPath(o.type) } }
      : { $ref: getSchemaPath(o.type) }
    : { type: 'object', nullable: true };
  const properties: Record<string, unknown> = { success: { type: 'boolean', example: true }, data };
  if (o.list) properties.meta = { $ref: getSchemaPath(PageMetaDto) };
  const decorators = [
    ApiOperation({ summary: o.summary, description: o.description }),
    ApiExtraModels(ErrorResponse, PageMetaDto, ...(o.type ? [o.type] : [])),
    ApiResponse({ status, description: 'Success', schema: { type: 'object', required: ['success', 'data'], properties } as never }),
    HttpCode(status),
    ...(o.errors ?? []).map((s) => {
      const codes = o.codes?.[s];
      const description = (ERROR_TEXT[s] ?? 'Error') + (codes?.length ? ` Codes: ${codes.map((c) => `\`${c}\``).join(', ')}.` : '');
      return ApiResponse({ status: s, description, type: ErrorResponse });
    }),
  ];
  return applyDecorators(...decorators);
}
