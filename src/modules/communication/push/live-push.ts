import { Injectable, Logger } from '@nestjs/common';
import type { Server } from 'socket.io';
import type { Scope } from '../../../common/access/scope';

/** The socket.io rooms (README "Notifications and live push"). */
export const rooms = {
  user: (userId: string) => `user:${userId}`,
  dispatch: (company: Scope) => `company:${company.companyId}:dispatch`,
  /** Every socket of a company's people: its users, customers and drivers. */
  company: (company: Scope) => `company:${company.companyId}`,
  token: (jti: string) => `token:${jti}`,
};

/**
 * Sends to the apps' live connections (the gateway's socket.io server; with REDIS_URL the rooms are
 * shared by every instance through the Redis adapter, so a push from any instance reaches a client
 * connected to another). Best effort: a client that is not connected gets nothing and reads the API.
 */
@Injectable()
export class LivePush {
  private readonly logger = new Logger('LivePush');
  private server?: Server;

  /** Called by the gateway once its server exists. */
  attach(server: Server): void {
    this.server = server;
  }

  toUsers(userIds: readonly string[], event: string, data: unknown): void {
    const ids = [...new Set(userIds)];
    if (!ids.length) return;
    this.emit(ids.map(rooms.user), event, data);
  }

  /** To the dispatch room of the scope's company. */
  toDispatch(company: Scope, event: string, data: unknown): void {
    this.emit([rooms.dispatch(company)], event, data);
  }

  /** Every socket opened with this token, on every instance. */
  disconnectToken(jti: string): void {
    this.disconnect(rooms.token(jti));
  }

  /** Every socket of a user who lost access (deactivated), on every instance. */
  disconnectUser(userId: string): void {
    this.disconnect(rooms.user(userId));
  }

  /** Every socket of a deactivated company's people, on every instance. */
  disconnectCompany(company: Scope): void {
    this.disconnect(rooms.company(company));
  }

  private disconnect(room: string): void {
    if (!this.server) return;
    this.server.in(room).disconnectSockets(true);
  }

  private emit(to: string[], event: string, data: unknown): void {
    if (!this.server) return;
    try {
      this.server.to(to).emit(event, data);
    } catch (err) {
      this.logger.warn({ msg: 'live push failed', event, error: (err as Error).message });
    }
  }
}
