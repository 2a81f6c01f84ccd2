import { Chat, ChatMessage, ChatRead } from './chats/chat.entities';
import { Notification } from './notifications/notification.entity';
import { ContactMessage } from './contact/contact-message.entity';

/**
 * This module's entities (its tables). Every data source gets them from here (src/app.entities.ts loads
 * the `ENTITIES` of each module's entities.ts); a new entity of the module is added to this list.
 */
export const ENTITIES = [Chat, ChatMessage, ChatRead, Notification, ContactMessage];
