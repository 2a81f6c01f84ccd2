import type { ModuleGroup } from '../../../common/module-group';
import { JobsModule } from '../../jobs';
import { OrdersModule } from '../../orders';
import { AfterCommitHooks } from './after-commit';
import { LiveGateway } from './live.gateway';
import { LivePush } from './live-push';
import { DisconnectDeactivated, DisconnectRevokedTokens, PushDriverLocations, PushJobChanges, PushToUsers } from './push-subscribers';

/**
 * Live push (issue #14): the socket.io gateway, what sends to it (`LivePush`), and the subscribers that
 * push jobs, chat messages, notification reads and driver locations, and disconnect revoked tokens.
 */
export const PUSH: ModuleGroup = {
  imports: [JobsModule, OrdersModule],
  controllers: [],
  providers: [
    AfterCommitHooks,
    LivePush,
    LiveGateway,
    PushJobChanges,
    PushToUsers,
    DisconnectRevokedTokens,
    DisconnectDeactivated,
    PushDriverLocations,
  ],
  exports: [],
};
