import type { UserType } from '../users';

/** The auth module's events (src/common/outbox/event-catalogue.ts: declaration merging). */
declare module '../../common/outbox/event-catalogue' {
  interface EventCatalogue {
    'user.registered': { type: UserType };
    /** A user's token revoked (logout, refresh, password change or reset); the aggregate is the token (`auth_token`, its jti). Live push disconnects its sockets. */
    'auth.token_revoked': { jti: string; user_id: string };
  }
}
