import { Body, Controller, Delete, Get, Injectable, Post, Put, Query, Res } from '@nestjs/common';
import { ApiTags } from '@nestjs/swagger';
import type { Response } from 'express';
import { Access } from '../../../common/access/access.decorator';
import { CurrentScope, Scope } from '../../../common/access/scope';
import { ApiIdParam, IdParam } from '../../../common/http/id-param';
import { Endpoint } from '../../../common/http/openapi';
import { AlsoExisting, ChatDto, ChatListQuery, ChatMessageDto, ChatMessagesQuery, CursorEndpoint, EditChatMessageDto, PostChatMessageDto } from './chat.dto';
import { ChatsService } from './chats.service';
import { MAX_CHAT_ATTACHMENTS, MAX_CHAT_TEXT } from './chat.types';

const MEMBERS =
  "A chat's members: the company's users, the order's customer and the drivers with a job on the order that is not aborted (checked at each request: a driver taken off the order loses the chat). Anyone else: 404.";
const OPEN =
  'One chat per order: the first call makes it (201, event `chat.created`), later calls answer the same chat (200). Any order status. ' + MEMBERS;
const POST =
  `\`body\` (text, at most ${MAX_CHAT_TEXT} characters) and/or \`attachment_media_ids\` (uploads, at most ${MAX_CHAT_ATTACHMENTS}); neither is 422. ` +
  'The author has read the chat up to the new message; the others are told (event `chat.message_posted` with `recipient_user_ids`). ' +
  MEMBERS;
const READ =
  'Newest first, deleted messages as tombstones (no body, no attachments, `deleted_at`). Cursor paging: `per_page` (default 20, at most 100) and `before` ' +
  "(a message id: the previous page's `meta.next_cursor`, null on the last page); a `before` that is not a message of the chat is 422. " +
  'Reading the newest page (no `before`) marks the chat read for the caller (the unread count of `GET /chats`). ' +
  MEMBERS;

type MemberCode = 'CO-B' | 'CU-B' | 'DR-B';

/**
 * A member's message routes (`POST {chat}/message`, `GET {chat}/messages`), the same for each side but for
 * the access code and the words; each side's controller extends it with its path (Nest routes inherited methods).
 */
function MemberChatRoutes(access: MemberCode, chat: string, whose: string) {
  @Injectable()
  class MemberChatRoutesHost {
    constructor(readonly chats: ChatsService) {}

    @Post(':chat/message')
    @Access(access)
    @ApiIdParam('chat', chat)
    @Endpoint({ summary: `Post a message in ${whose}`, description: POST, type: ChatMessageDto, status: 201, errors: [404, 422] })
    post(@CurrentScope() scope: Scope, @IdParam('chat') chatId: string, @Body() dto: PostChatMessageDto) {
      return this.chats.post(scope, chatId, dto);
    }

    @Get(':chat/messages')
    @Access(access)
    @ApiIdParam('chat', chat)
    @CursorEndpoint({ summary: `Messages of ${whose}, newest first (cursor paging)`, description: READ, type: ChatMessageDto, errors: [404, 422] })
    messages(@CurrentScope() scope: Scope, @IdParam('chat') chatId: string, @Query() q: ChatMessagesQuery) {
      return this.chats.messages(scope, chatId, q);
    }

    /** Opens the order's chat: 201 when made, 200 when it existed. */
    protected async openChat(scope: Scope, orderId: string, res: Response) {
      const { chat, created } = await this.chats.open(scope, orderId);
      if (!created) res.status(200);
      return chat;
    }
  }
  return MemberChatRoutesHost;
}

/** The company's side (CO-B: any company user; the scope needs its company). */
@ApiTags('Chats')
@Controller('api/v1/company/chats')
export class CompanyChatsController extends MemberChatRoutes('CO-B', "The chat of one of the company's orders.", "an order's chat") {
  @Post(':order/create')
  @Access('CO-B')
  @ApiIdParam('order', "One of the company's orders.")
  @Endpoint({ summary: "Open an order's chat (or get it when it exists)", description: OPEN, type: ChatDto, status: 201, errors: [404] })
  @AlsoExisting(ChatDto, 'The chat already existed.')
  open(@CurrentScope() scope: Scope, @IdParam('order') orderId: string, @Res({ passthrough: true }) res: Response) {
    return this.openChat(scope, orderId, res);
  }
}

/** The customer's side (CU-B): chats of their own orders. */
@ApiTags('Chats')
@Controller('api/v1/customer/chats')
export class CustomerChatsController extends MemberChatRoutes('CU-B', 'The chat of one of my orders.', "my order's chat") {
  @Post(':order/create')
  @Access('CU-B')
  @ApiIdParam('order', 'One of my orders.')
  @Endpoint({ summary: "Open my order's chat with the company (or get it when it exists)", description: OPEN, type: ChatDto, status: 201, errors: [404] })
  @AlsoExisting(ChatDto, 'The chat already existed.')
  open(@CurrentScope() scope: Scope, @IdParam('order') orderId: string, @Res({ passthrough: true }) res: Response) {
    return this.openChat(scope, orderId, res);
  }
}

/** The driver's side (DR-B): chats of orders they have a job on (not aborted). */
@ApiTags('Chats')
@Controller('api/v1/driver/chats')
export class DriverChatsController extends MemberChatRoutes('DR-B', 'The chat of an order I have a job on.', 'the chat of an order I work on') {}

const AUTHOR_ONLY =
  "Only the author: another member of the chat gets 403 `NOT_AUTHOR`; a message of a chat the caller is not a member of (another company's, another customer's, an order the driver is no longer on), or a deleted one, is 404.";

/** Any member (TOK): the caller's chats, and their own messages. */
@ApiTags('Chats')
@Controller('api/v1/chats')
export class ChatsController {
  constructor(private readonly chats: ChatsService) {}

  @Get()
  @Access('TOK')
  @Endpoint({
    summary: 'My chats, latest activity first, with the last message and my unread count',
    description:
      "A company user: the company's chats; a customer: those of their orders; a driver: those of orders they have a job on (not aborted). " +
      '`unread_count`: messages of others, not deleted, after the caller last read the chat (reading its newest messages). Sort: `last_activity_at` (default `-last_activity_at`).',
    type: ChatDto,
    list: true,
    errors: [422],
  })
  list(@CurrentScope() scope: Scope, @Query() q: ChatListQuery) {
    return this.chats.list(scope, q);
  }

  @Put('message/:message')
  @Access('TOK')
  @ApiIdParam('message', 'One of my messages.')
  @Endpoint({
    summary: 'Edit my message',
    description: `The fields given replace the message's (\`body\` null removes the text, \`attachment_media_ids\` replaces the set); it must keep a text or an attachment (422), and \`edited_at\` is set (event \`chat.message_edited\`). ${AUTHOR_ONLY}`,
    type: ChatMessageDto,
    errors: [403, 404, 422],
    codes: { 403: ['NOT_AUTHOR'] },
  })
  edit(@CurrentScope() scope: Scope, @IdParam('message') id: string, @Body() dto: EditChatMessageDto) {
    return this.chats.edit(scope, id, dto);
  }

  @Delete('message/:message')
  @Access('TOK')
  @ApiIdParam('message', 'One of my messages.')
  @Endpoint({
    summary: 'Delete my message (a tombstone stays)',
    description: `The message keeps its place and time but loses its body and attachments; \`deleted_at\` is set (event \`chat.message_deleted\`). Answers the tombstone. ${AUTHOR_ONLY}`,
    type: ChatMessageDto,
    errors: [403, 404],
    codes: { 403: ['NOT_AUTHOR'] },
  })
  remove(@CurrentScope() scope: Scope, @IdParam('message') id: string) {
    return this.chats.remove(scope, id);
  }
}
