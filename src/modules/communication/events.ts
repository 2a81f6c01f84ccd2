export {};

/** Communication's events (issue #14; src/common/outbox/event-catalogue.ts: declaration merging). */
declare module '../../common/outbox/event-catalogue' {
  interface EventCatalogue {
    // Chats: the aggregate is the chat; recipients are the members other than the author (user ids).
    'chat.created': { order_id: string };
    'chat.message_posted': { chat_id: string; order_id: string; message_id: string; author_user_id: string; recipient_user_ids: string[]; preview: string };
    'chat.message_edited': { chat_id: string; order_id: string; message_id: string; author_user_id: string; recipient_user_ids: string[] };
    'chat.message_deleted': { chat_id: string; order_id: string; message_id: string; author_user_id: string; recipient_user_ids: string[] };
    // Notifications: the aggregate is the user; live push keeps the user's other devices in step.
    /** `notification_ids`: the notifications marked read (empty with `all`: every unread one was). */
    'notification.read': { notification_ids: string[]; all: boolean };
    'notification.deleted': { notification_id: string };
    /** A message sent through the contact form (the aggregate is the message, the actor the user). */
    'contact_message.sent': { subject: string };
  }
}
