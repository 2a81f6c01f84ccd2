import { applyDecorators, HttpCode, Type } from '@nestjs/common';
import { ApiBody, ApiExtraModels, ApiOperation, ApiProperty, ApiPropertyOptional, ApiResponse, DECORATORS, getSchemaPath } from '@nestjs/swagger';

export class ErrorResponse {
  @ApiProperty({ enum: [false], example: false }) success: boolean;
  @ApiProperty({ description: 'For people; may change wording.', example: 'The given data was invalid.' }) message: string;
  @ApiProperty({ description: 'For programs: stable machine code. Each response lists the codes it can carry.', example: 'VALIDATION_FAILED' }) code: string;
  @ApiPropertyOptional({
    type: 'object',
    additionalProperties: { type: 'array', items: { type: 'string' } },
    description: 'Per-field messages, keyed by field path (`address.zip`), on 422 answers.',
    example: { email: ['must be an email'], phone: ['must be a phone number in E.164 format (+15125550123)'] },
  })
  errors?: Record<string, string[]>;
  @ApiPropertyOptional({
    type: 'object',
    additionalProperties: true,
    description: 'Machine-readable facts of the failure, for the codes that carry them (`NO_CONTAINER_AVAILABLE`: `asset_specification_id` and the `dates` no container is free).',
    example: { asset_specification_id: '6f1c2b8e-3d4a-4f5b-9c6d-7e8f9a0b1c2d', dates: ['2027-03-15', '2027-03-16'] },
  })
  details?: Record<string, unknown>;
  @ApiProperty({ description: 'The `X-Request-Id` of the request (echoed when sane, else generated); quote it in support requests.', example: 'a3c1a7c2-8c2e-4f0b-9a53-0a4f5d1f2b7e' })
  request_id: string;
}

/**
 * Error codes each status carries on any route that answers it (error filter, request checks); a route
 * adds its own with `codes`.
 */
export const GENERIC_ERROR_CODES: Partial<Record<number, readonly string[]>> = {
  400: ['MALFORMED_JSON', 'JSON_TOO_DEEP', 'BAD_REQUEST'],
  401: ['UNAUTHENTICATED'],
  404: ['NOT_FOUND'],
  // A unique key another request took in between, a serialization failure or deadlock (error filter).
  409: ['CONFLICT', 'CONCURRENT_UPDATE'],
  413: ['PAYLOAD_TOO_LARGE'],
  415: ['UNSUPPORTED_MEDIA_TYPE'],
  422: ['VALIDATION_FAILED'],
  429: ['THROTTLED'],
  // A time limit of the database (lock, statement, pooled connection): any route that reads or writes (error filter).
  503: ['SERVICE_UNAVAILABLE', 'DATABASE_BUSY'],
};

const ERROR_TEXT: Record<number, string> = {
  400: 'Unreadable request: malformed or too deeply nested JSON.',
  401: 'Missing, malformed, expired or revoked token, or wrong credentials.',
  403: 'Forbidden for this caller.',
  404: 'Not found (absent, malformed id or another tenant\'s).',
  409: 'Conflict: illegal state change, duplicate or record in use.',
  413: 'Too large.',
  415: 'Unsupported media type: bodies are JSON.',
  422: 'Validation failed (per-field `errors`).',
  429: 'Throttled; see `Retry-After`.',
  502: 'An upstream service (the payment provider) could not be reached; nothing was recorded: retry.',
  503: 'Service unavailable.',
};

/** A realistic message (and field errors) per code, for the examples of the error responses. */
const ERROR_EXAMPLES: Record<string, { message: string; errors?: Record<string, string[]>; details?: Record<string, unknown> }> = {
  MALFORMED_JSON: { message: 'Malformed JSON body.' },
  JSON_TOO_DEEP: { message: 'The JSON body is nested deeper than 32 levels.' },
  BAD_REQUEST: { message: 'The request body could not be read.' },
  UNAUTHENTICATED: { message: 'Authentication required.' },
  INVALID_TOKEN: { message: 'Invalid token.' },
  TOKEN_EXPIRED: { message: 'Token has expired.' },
  TOKEN_REVOKED: { message: 'Token has been revoked.' },
  INVALID_CREDENTIALS: { message: 'These credentials do not match our records.' },
  WRONG_ACTOR: { message: 'This route is for company users.' },
  NO_COMPANY: { message: 'Create your company first.' },
  NOT_A_MEMBER: { message: 'This account is not a customer of any company.' },
  USER_INACTIVE: { message: 'This account is inactive.' },
  COMPANY_INACTIVE: { message: 'This company is inactive.' },
  NOT_CHECKED_IN: { message: 'Check in first.' },
  ADMIN_REGISTRATION_DISABLED: { message: 'Administrator registration is not enabled on this server.' },
  INVALID_REGISTRATION_KEY: { message: 'The registration key is not valid.' },
  NOT_FOUND: { message: 'Order not found.' },
  CONFLICT: { message: 'A record with these values already exists.' },
  CONCURRENT_UPDATE: { message: 'Concurrent update; retry the request.' },
  IN_USE: { message: 'Waste type is in use and cannot be deleted.' },
  INVALID_TRANSITION: { message: 'Order cannot move from completed to cancelled.' },
  EMAIL_TAKEN: { message: 'This e-mail address is already registered.' },
  COMPANY_EXISTS: { message: 'You already have a company.' },
  DUPLICATE_NAME: { message: 'A lot with this name already exists.' },
  DUPLICATE_CODE: { message: 'A waste type with this code already exists.' },
  DUPLICATE_SERIAL: { message: 'An asset with this serial already exists.' },
  DUPLICATE_PLATE: { message: 'A truck with this plate already exists.' },
  DUPLICATE_DATE: { message: 'This lot already has a holiday on 2027-03-15.' },
  DUPLICATE_WASTE_TYPE: { message: 'This waste type is already allowed in the specification.' },
  ORDER_STATE: { message: 'A extend_rental request is possible only while the order is approved, delivered; this order is pending.' },
  ORDER_CLOSED: { message: 'A completed order cannot be edited.' },
  ORDER_NOT_COMPLETED: { message: 'Feedback is possible once the order is completed.' },
  FEEDBACK_EXISTS: { message: 'Feedback was already given for this order.' },
  CHANGE_REQUEST_PENDING: { message: 'This order already has a pending change request; wait for the company to decide on it.' },
  IDEMPOTENCY_KEY_IN_FLIGHT: { message: 'A request with this Idempotency-Key is still being processed.' },
  PAYLOAD_TOO_LARGE: { message: 'Request body too large.' },
  UNSUPPORTED_MEDIA_TYPE: { message: 'The request body must be JSON (Content-Type: application/json).' },
  PAYMENT_PROVIDER_UNAVAILABLE: { message: 'The payment provider could not be reached; nothing was recorded. Try again in a moment.' },
  VALIDATION_FAILED: { message: 'The given data was invalid.', errors: { name: ['should not be empty'], email: ['must be an email'] } },
  NOT_PRICED: { message: '20-yard roll-off has no price for this customer yet.', errors: { asset_specification_id: ['has no price in the price book'] } },
  NO_SERVING_LOT: { message: 'No active lot with a position serves this address.', errors: { address_id: ['no active lot serves this address'] } },
  HOLIDAY: { message: 'The serving lot is closed on 2027-03-15 (Founders day).', errors: { delivery_date: ['the serving lot is closed on this date'] } },
  CLOSED_DAY: { message: 'The serving lot is closed on Sundays.', errors: { delivery_date: ['the serving lot is closed on this weekday'] } },
  INACTIVE: { message: 'The serving lot is inactive.', errors: { delivery_date: ['the serving lot is inactive'] } },
  PROMOTION_INVALID: { message: 'This promotion has expired.', errors: { promotion_code: ['This promotion has expired.'] } },
  PICKUP_NOT_SCHEDULED: { message: 'The order has no pickup date to extend: request schedule_pickup first.', errors: { days: ['needs a scheduled pickup date: request schedule_pickup first'] } },
  IDEMPOTENCY_KEY_REUSED: { message: 'This Idempotency-Key was used with a different request.' },
  INVALID_CODE: { message: 'The code is not valid (4 tries left).', errors: { code: ['The code is not valid (4 tries left).'] } },
  CODE_EXPIRED: { message: 'The code has expired or was never sent; request a new one.', errors: { code: ['The code has expired or was never sent; request a new one.'] } },
  CODE_EXHAUSTED: { message: 'Too many wrong tries; request a new code.', errors: { code: ['Too many wrong tries; request a new code.'] } },
  THROTTLED: { message: 'Too many requests. Try again later.' },
  ACCOUNT_LOCKED: { message: 'Too many failed logins; try again in 60 seconds.' },
  SERVICE_UNAVAILABLE: { message: 'Service unavailable.' },
  DATABASE_UNAVAILABLE: { message: 'The database is not reachable.' },
  DATABASE_BUSY: { message: 'The database is busy; retry the request in a moment.' },
  // Dispatch, the driver's side (job execution, evidence, locations).
  ON_BREAK: { message: 'You are on a break: end it first.' },
  JOB_MERGED: { message: 'This pickup was merged into a swap: work the swap, and the pickup completes with it.' },
  JOB_STATE: { message: 'Evidence is added to a job in progress; this job is assigned.' },
  JOB_IN_PROGRESS: { message: 'Another of your jobs is in progress: complete it first.' },
  ASSET_REQUIRED: { message: 'No asset is reserved for this delivery: ask dispatch to assign one.' },
  JOB_BLOCKED: { message: 'A blocking issue on this job is open: the company must resolve it first.' },
  EVIDENCE_REQUIRED: { message: 'A delivery needs a photo (evidence of kind photo) before it completes.' },
  TICKET_REQUIRED: { message: 'A pickup dumps at a station: record its station ticket (evidence of kind ticket) first.' },
  NOTHING_ON_SITE: { message: 'Order 42 has no container on site to take.' },
  NO_DESTINATION: { message: 'This relocation has no (live) destination address: ask dispatch.' },
  LOCATION_LIMIT: { message: 'This job has 10000 location points already.' },
  QR_MISMATCH: { message: "The scanned QR code belongs to another asset than this job's.", errors: { code: ["The scanned QR code belongs to another asset than this job's."] } },
  WASTE_NOT_ACCEPTED: { message: "This station does not accept the order's waste type.", errors: { station_id: ["This station does not accept the order's waste type."] } },
  // Route collapse: a previewed plan whose day changed (issue #25).
  PLAN_STALE: { message: "The driver's day changed since plan 9f2c4e7a1b3d5f60718293a4b5c6d7e8 was made: nothing was saved; preview the day again." },
  // Merchant onboarding (payments).
  TERMS_NOT_ACCEPTED: { message: 'Accept the merchant terms (version 2025-06-01) first: PUT /api/v1/psp/onboarding/tos.' },
  ONBOARDING_NOT_STARTED: { message: 'Merchant onboarding has not started: PUT /api/v1/psp/onboarding/complete starts it.' },
  // Chats.
  NOT_AUTHOR: { message: 'Only the author can change or delete a message.' },
  // Outbound webhook endpoints (issue #28).
  URL_NOT_ALLOWED: { message: 'This URL is not allowed: 10.0.0.5 is a private address; only public addresses are allowed.', errors: { url: ['url 10.0.0.5 is a private address; only public addresses are allowed'] } },
  NOT_RETRYABLE: { message: 'The relay still retries this event: it can be retried by hand once it is dead.' },
  ENDPOINT_DISABLED: { message: 'This endpoint is disabled: enable it first.' },
  // Inbound payment webhooks.
  INVALID_SIGNATURE: { message: 'The signature does not match.' },
  TERMS_VERSION_OUTDATED: { message: 'The current merchant terms are version 2025-06-01.', errors: { version: ['must be the current version 2025-06-01'] } },
  // The container calendar (issue #25).
  NO_CONTAINER_AVAILABLE: {
    message: 'No 20 yd roll-off is free on 2027-03-15, 2027-03-16.',
    details: { asset_specification_id: '6f1c2b8e-3d4a-4f5b-9c6d-7e8f9a0b1c2d', dates: ['2027-03-15', '2027-03-16'] },
  },
};

const EXAMPLE_REQUEST_ID = 'a3c1a7c2-8c2e-4f0b-9a53-0a4f5d1f2b7e';

/** The example of an error code (`components.examples[code]`, filled by `buildOpenApiDocument`). */
export function errorExample(code: string) {
  const e = ERROR_EXAMPLES[code] ?? { message: 'Error.' };
  return { summary: code, value: { success: false, message: e.message, code, ...(e.errors ? { errors: e.errors } : {}), ...(e.details ? { details: e.details } : {}), request_id: EXAMPLE_REQUEST_ID } };
}

/** The error envelope of one status: `code` limited to `codes`, one example per code (a reference to `components.examples`). */
export function errorResponseContent(status: number, codes: readonly string[]) {
  const examples = Object.fromEntries(codes.map((code) => [code, { $ref: `#/components/examples/${code}` }]));
  const schema = { allOf: [{ $ref: getSchemaPath(ErrorResponse) }, { type: 'object', properties: { code: { type: 'string', enum: [...codes] } } }] };
  return { schema, examples };
}

export const describeError = (status: number, codes: readonly string[]) => `${ERROR_TEXT[status] ?? 'Error.'} Codes: ${codes.map((c) => `\`${c}\``).join(', ')}.`;

/**
 * Documents error responses, `{status: codes}`: the error envelope with `code` limited to the listed
 * codes (plus the status's GENERIC_ERROR_CODES) and one example per code. Declarations of one status by
 * several decorators (`@Access`, `@Endpoint`, `@Idempotent`) are merged, whatever their order.
 */
export function ApiErrors(errors: Partial<Record<number, readonly string[]>>) {
  return (_target: object, _key?: string | symbol, descriptor?: PropertyDescriptor) => {
    if (!descriptor) throw new Error('ApiErrors documents routes (methods) only');
    const responses = { ...(Reflect.getMetadata(DECORATORS.API_RESPONSE, descriptor.value) ?? {}) } as Record<string, { examples?: Record<string, unknown> } & Record<string, unknown>>;
    for (const [key, own] of Object.entries(errors)) {
      const status = Number(key);
      const codes = [...new Set([...Object.keys(responses[key]?.examples ?? {}), ...(GENERIC_ERROR_CODES[status] ?? []), ...(own ?? [])])];
      if (!codes.length) throw new Error(`ApiErrors: name the codes of status ${status} (e.g. \`codes: { ${status}: ['SOME_CODE'] }\`)`);
      const { schema, examples } = errorResponseContent(status, codes);
      responses[key] = { description: describeError(status, codes), schema, examples, ...(status === 429 || status === 503 ? { headers: RETRY_AFTER } : {}) };
    }
    Reflect.defineMetadata(DECORATORS.API_RESPONSE, responses, descriptor.value);
    return descriptor;
  };
}

const RETRY_AFTER = { 'Retry-After': { description: 'Seconds to wait before trying again.', schema: { type: 'integer', example: 42 } } };

export class PageMetaDto {
  @ApiProperty({ example: 1, minimum: 1 }) page: number;
  @ApiProperty({ example: 20, minimum: 1, maximum: 100 }) per_page: number;
  @ApiProperty({ example: 57, minimum: 0 }) total: number;
  @ApiProperty({ example: 3, minimum: 0, description: '0 when the list is empty.' }) last_page: number;
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
  /** A list's `meta` when it carries more than the page (a `PageMetaDto` subclass, e.g. with `unread_count`). */
  meta?: Type<PageMetaDto>;
  /** Success status (default 200; 201 for creations). */
  status?: number;
  /** The route answers `withMessage(data, message)`: documents the envelope's `message`, with this text as its example. */
  message?: string;
  /** Error statuses this route can answer with besides the access rule's and the request checks' (e.g. [404, 409, 422]). */
  errors?: number[];
  /**
   * The route's own machine `code`s per error status, added to GENERIC_ERROR_CODES (404 `NOT_FOUND`,
   * 409 `CONFLICT`/`CONCURRENT_UPDATE`, 422 `VALIDATION_FAILED`, …): e.g. `{ 409: ['IN_USE'] }`.
   * A status listed here is documented even when absent from `errors`.
   */
  codes?: Partial<Record<number, readonly string[]>>;
}

/** `data: null`: the route answers no data. */
const NO_DATA = { type: 'object', nullable: true, enum: [null], description: 'Always null: this route answers no data.', example: null };

/**
 * One decorator for a route's OpenAPI description and success status: summary, the success envelope
 * around `type` (or a paginated list of it, or null), its `message` when the route sends one, and the
 * error envelope for each listed status with its codes.
 */
export function Endpoint(o: EndpointOptions) {
  const status = o.status ?? 200;
  const data = o.type
    ? o.list || o.array
      ? { type: 'array', items: { $ref: getSchemaPath(o.type) } }
      : { $ref: getSchemaPath(o.type) }
    : NO_DATA;
  const properties: Record<string, unknown> = { success: { type: 'boolean', enum: [true], example: true }, data };
  const required = ['success', 'data'];
  if (o.list) {
    properties.meta = { $ref: getSchemaPath(o.meta ?? PageMetaDto) };
    required.push('meta');
  }
  if (o.message !== undefined) {
    properties.message = { type: 'string', description: 'For people.', example: o.message };
    required.push('message');
  }
  const errors: Partial<Record<number, readonly string[]>> = {};
  for (const s of o.errors ?? []) errors[s] = o.codes?.[s] ?? [];
  for (const [s, codes] of Object.entries(o.codes ?? {})) errors[Number(s)] = codes ?? [];
  errors[503] ??= []; // every route may meet a database time limit (DATABASE_BUSY, Retry-After)
  const decorators = [
    ApiOperation({ summary: o.summary, description: o.description }),
    ApiExtraModels(ErrorResponse, PageMetaDto, ...(o.type ? [o.type] : []), ...(o.meta ? [o.meta] : [])),
    ApiResponse({ status, description: 'Success', schema: { type: 'object', required, properties } as never }),
    HttpCode(status),
    ApiErrors(errors),
  ];
  return applyDecorators(...decorators);
}

/**
 * A request body whose fields exclude each other (a card or the wallet; a list of dates or a range):
 * one named example per alternative (`examples` of the media type), so that Swagger UI offers each and
 * never sends a body that mixes them. Pair it with `@ExclusiveFields` on the DTO (src/common/http/openapi-strict.ts).
 */
export const BodyExamples = (type: Type<unknown>, examples: Record<string, { summary: string; description?: string; value: Record<string, unknown> }>) => ApiBody({ type, examples });
