/** Who wrote a chat message (the author's user type). */
export const CHAT_AUTHOR_TYPES = ['company', 'customer', 'driver'] as const;
export type ChatAuthorType = (typeof CHAT_AUTHOR_TYPES)[number];

/** Longest message text (characters). */
export const MAX_CHAT_TEXT = 4000;
/** Most uploads on one message. */
export const MAX_CHAT_ATTACHMENTS = 10;

