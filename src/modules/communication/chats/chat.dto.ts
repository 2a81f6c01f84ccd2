import { applyDecorators, HttpStatus } from '@nestjs/common';
import { ApiExtraModels, ApiProperty, ApiPropertyOptional, ApiResponse, getSchemaPath, OmitType, PickType } from '@nestjs/swagger';
import { ArrayMaxSize, IsOptional, IsUUID } from 'class-validator';
import { MAX_PER_PAGE, PageQuery } from '../../../common/http/pagination';
import { Endpoint, EndpointOptions } from '../../../common/http/openapi';
import { jsonValue } from '../../../database/json-value';
import { TextField, UuidListField } from '../../../common/validation/fields';
import { CHAT_AUTHOR_TYPES, MAX_CHAT_ATTACHMENTS, MAX_CHAT_TEXT, type ChatAuthorType } from './chat.types';

const iso = (d: Date | string | null) => (d === null ? null : new Date(d).toISOString());
const mediaUrl = (id: string) => `/api/v1/media/${id}`;

// ---------------------------------------------------------------- bodies

const ATTACHMENTS = `Uploads (POST /upload-media), at most ${MAX_CHAT_ATTACHMENTS}; an id that is not an upload, or an upload of another company's chat, is 422.`;

/** `POST …/chats/{chat}/message`: text, attachments or both. */
export class PostChatMessageDto {
  @TextField({ optional: true, max: MAX_CHAT_TEXT, example: 'The gate code is 4417; the container can go left of the driveway.', description: 'The text (trimmed, 1–4,000 characters).' })
  body?: string;

  @UuidListField({ optional: true, description: ATTACHMENTS, example: ['3f0c2a9e-7d1b-4c55-9a53-0a4f5d1f2b7e'] })
  @ArrayMaxSize(MAX_CHAT_ATTACHMENTS)
  attachment_media_ids?: string[];
}

/** `PUT /chats/message/{message}`: the fields given replace the message's; the result still needs text or an attachment. */
export class EditChatMessageDto {
  @TextField({ optional: true, nullable: true, max: MAX_CHAT_TEXT, example: 'The gate code is 4471 (not 4417).', description: 'The new text; null removes it (the message keeps its attachments).' })
  body?: string | null;

  @UuidListField({ optional: true, description: `The new set of attachments (replaces the old; [] removes them). ${ATTACHMENTS}`, example: ['3f0c2a9e-7d1b-4c55-9a53-0a4f5d1f2b7e'] })
  @ArrayMaxSize(MAX_CHAT_ATTACHMENTS)
  attachment_media_ids?: string[];
}

// ---------------------------------------------------------------- queries

/** `GET /chats`: the caller's chats, latest activity first. */
export class ChatListQuery extends OmitType(PageQuery, ['q'] as const) {}

/** A page of messages, newest first: `before` (a message id, the previous page's `meta.next_cursor`) continues. */
export class ChatMessagesQuery extends PickType(PageQuery, ['per_page'] as const) {
  @ApiPropertyOptional({
    format: 'uuid',
    description: "The cursor: messages older than this message of the chat (give the previous page's `meta.next_cursor`); absent: the newest. A message of another chat is 422.",
  })
  @IsOptional()
  @IsUUID('all')
  before?: string;
}

// ---------------------------------------------------------------- responses

export class ChatAuthorDto {
  @ApiProperty({ format: 'uuid', description: 'The user.' }) id: string;
  @ApiProperty({ example: 'Maria Ortiz' }) name: string;
  @ApiProperty({ enum: CHAT_AUTHOR_TYPES, description: 'company (a user of the company), customer or driver.' }) type: ChatAuthorType;
}

export class ChatAttachmentDto {
  @ApiProperty({ format: 'uuid' }) id: string;
  @ApiProperty({ example: '/api/v1/media/3f0c2a9e-7d1b-4c55-9a53-0a4f5d1f2b7e', description: 'Where the upload is served.' }) url: string;
}

/** A message row as the reads bring it (raw SQL, also inside a JSON aggregate). */
export interface MessageRow {
  id: string;
  chat_id: string;
  author_user_id: string;
  author_name: string | null;
  author_type: ChatAuthorType;
  body: string | null;
  attachment_media_ids: string[];
  edited_at: Date | string | null;
  deleted_at: Date | string | null;
  created_at: Date | string;
  updated_at: Date | string;
}

export class ChatMessageDto {
  @ApiProperty({ format: 'uuid' }) id: string;
  @ApiProperty({ format: 'uuid' }) chat_id: string;
  @ApiProperty({ type: ChatAuthorDto }) author: ChatAuthorDto;
  @ApiProperty({ nullable: true, type: String, example: 'The gate code is 4417.', description: 'Null when the message has attachments only, or was deleted.' }) body: string | null;
  @ApiProperty({ type: [ChatAttachmentDto], description: 'Empty when deleted.' }) attachments: ChatAttachmentDto[];
  @ApiProperty({ format: 'date-time', nullable: true, type: String, description: 'The latest edit.' }) edited_at: string | null;
  @ApiProperty({ format: 'date-time', nullable: true, type: String, description: 'Set on a deleted message (a tombstone: no body, no attachments).' }) deleted_at: string | null;
  @ApiProperty({ format: 'date-time' }) created_at: string;
  @ApiProperty({ format: 'date-time' }) updated_at: string;

  static of(r: MessageRow): ChatMessageDto {
    return {
      id: r.id,
      chat_id: r.chat_id,
      author: { id: r.author_user_id, name: r.author_name ?? '', type: r.author_type },
      body: r.body,
      attachments: (r.attachment_media_ids ?? []).map((id) => ({ id, url: mediaUrl(id) })),
      edited_at: iso(r.edited_at),
      deleted_at: iso(r.deleted_at),
      created_at: iso(r.created_at)!,
      updated_at: iso(r.updated_at)!,
    };
  }
}

export class ChatCustomerDto {
  @ApiProperty({ format: 'uuid' }) id: string;
  @ApiProperty({ example: 'Jordan Miles' }) name: string;
}

/** A chat row with its extras (the list's and the read's subqueries). */
export interface ChatRow {
  id: string;
  order_id: string;
  order_number: string;
  customer_id: string;
  customer_name: string | null;
  last_activity_at: Date | string;
  created_at: Date | string;
  last_message: unknown;
  unread_count: number;
}

export class ChatDto {
  @ApiProperty({ format: 'uuid' }) id: string;
  @ApiProperty({ format: 'uuid' }) order_id: string;
  @ApiProperty({ example: 'ORD-000042' }) order_number: string;
  @ApiProperty({ type: ChatCustomerDto, description: "The order's customer." }) customer: ChatCustomerDto;
  @ApiProperty({ type: ChatMessageDto, nullable: true, description: 'The newest message (a tombstone when it was deleted); null before the first.' }) last_message: ChatMessageDto | null;
  @ApiProperty({ type: 'integer', minimum: 0, example: 2, description: "Messages of others, not deleted, posted after the caller last read the chat (reading a chat's messages marks it read)." })
  unread_count: number;
  @ApiProperty({ format: 'date-time', description: 'The newest message, else the creation.' }) last_activity_at: string;
  @ApiProperty({ format: 'date-time' }) created_at: string;

  static of(r: ChatRow): ChatDto {
    const last = jsonValue<MessageRow | null>(r.last_message);
    return {
      id: r.id,
      order_id: r.order_id,
      order_number: r.order_number,
      customer: { id: r.customer_id, name: r.customer_name ?? '' },
      last_message: last ? ChatMessageDto.of(last) : null,
      unread_count: Number(r.unread_count),
      last_activity_at: iso(r.last_activity_at)!,
      created_at: iso(r.created_at)!,
    };
  }
}

export class CursorMetaDto {
  @ApiProperty({ example: 20, minimum: 1, maximum: MAX_PER_PAGE }) per_page: number;
  @ApiProperty({
    format: 'uuid',
    nullable: true,
    type: String,
    description: 'Give it as `before` for the next (older) page; null on the last page.',
    example: '9b2f6a1e-3c4d-4e5f-8a9b-0c1d2e3f4a5b',
  })
  next_cursor: string | null;
}

/** A page of messages, as the envelope sends it (`{success, data, meta: {per_page, next_cursor}}`). */
export interface MessagePage {
  success: true;
  data: ChatMessageDto[];
  meta: CursorMetaDto;
}

/** `@Endpoint` for a cursor-paged list of `type`: `data` an array, `meta` a `CursorMetaDto`. */
export function CursorEndpoint(o: Omit<EndpointOptions, 'list' | 'array' | 'status'> & { type: NonNullable<EndpointOptions['type']> }) {
  return applyDecorators(
    Endpoint({ ...o, array: true }),
    ApiExtraModels(CursorMetaDto),
    ApiResponse({
      status: HttpStatus.OK,
      description: 'Success',
      schema: {
        type: 'object',
        required: ['success', 'data', 'meta'],
        properties: {
          success: { type: 'boolean', enum: [true], example: true },
          data: { type: 'array', items: { $ref: getSchemaPath(o.type) } },
          meta: { $ref: getSchemaPath(CursorMetaDto) },
        },
      } as never,
    }),
  );
}

/** Documents the 200 answer of a creation route that returns the record when it already exists (201 when it makes it). */
export function AlsoExisting(type: NonNullable<EndpointOptions['type']>, description: string) {
  return ApiResponse({
    status: HttpStatus.OK,
    description,
    schema: { type: 'object', required: ['success', 'data'], properties: { success: { type: 'boolean', enum: [true], example: true }, data: { $ref: getSchemaPath(type) } } } as never,
  });
}
