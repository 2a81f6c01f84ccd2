import { Logger, OnApplicationShutdown } from '@nestjs/common';
import { JwtService } from '@nestjs/jwt';
import { OnGatewayInit, WebSocketGateway } from '@nestjs/websockets';
import { createAdapter } from '@socket.io/redis-adapter';
import Redis from 'ioredis';
import type { Server, Socket } from 'socket.io';
import type { Actor } from '../../../common/access/actor';
import { ActorResolver, type TokenClaims } from '../../../common/access/jwt.strategy';
import { Scope } from '../../../common/access/scope';
import { ApiError } from '../../../common/http/api-error';
import { isUuid } from '../../../common/http/id-param';
import { AppConfig } from '../../../config/app-config';
import { LivePush, rooms } from './live-push';

/** Where the socket.io server answers on the API's HTTP server (socket.io's default path). */
export const LIVE_PATH = '/socket.io';

/** A refused handshake: the client's `connect_error` carries `message` and `data.code` (the HTTP API's codes). */
class HandshakeError extends Error {
  readonly data: { code: string };
  constructor(code: string, message: string) {
    super(message);
    this.data = { code };
  }
}

/** The bearer token of a handshake: `auth.token` (socket.io clients) or an `Authorization: Bearer …` header. */
function tokenOf(socket: Socket): string | undefined {
  const fromAuth = (socket.handshake.auth as { token?: unknown } | undefined)?.token;
  if (typeof fromAuth === 'string' && fromAuth) return fromAuth.replace(/^Bearer\s+/i, '');
  const header = socket.handshake.headers.authorization;
  const m = typeof header === 'string' ? /^Bearer\s+(\S+)$/i.exec(header) : null;
  return m?.[1];
}

/**
 * Live push to the apps (issue #14): socket.io on the API's own HTTP server, path `/socket.io`. The
 * handshake carries the same bearer token as the HTTP API and passes the same rules as a role route
 * (valid, unrevoked token of a company user, customer or driver; user active; company active; a
 * customer or driver with their role record), else the connection is refused with the API's code. A
 * socket joins `user:<id>`, `token:<jti>` (revocation disconnects it) and, for company users,
 * `company:<id>:dispatch`. Clients only listen; what they receive is sent by `LivePush`. With REDIS_URL
 * the Redis adapter shares the rooms between instances.
 */
@WebSocketGateway({ path: LIVE_PATH, cors: { origin: '*' }, serveClient: false })
export class LiveGateway implements OnGatewayInit, OnApplicationShutdown {
  private readonly logger = new Logger('LiveGateway');
  private redis?: { pub: Redis; sub: Redis };

  constructor(
    private readonly config: AppConfig,
    private readonly jwt: JwtService,
    private readonly actors: ActorResolver,
    private readonly push: LivePush,
  ) {}

  afterInit(server: Server): void {
    if (this.config.redisUrl) {
      // Redis is optional and may be down: the subscriber's (re)subscriptions wait for it (no retry limit), and a
      // publish that fails is logged and dropped (the adapter does not handle its promise; pushes are best
      // effort: the notification itself is in the database).
      const pub = new Redis(this.config.redisUrl, { maxRetriesPerRequest: 2 });
      const sub = new Redis(this.config.redisUrl, { maxRetriesPerRequest: null });
      for (const c of [pub, sub]) c.on('error', (e: Error) => this.logger.warn({ msg: 'live push: Redis error', error: e.message }));
      const publish = pub.publish.bind(pub) as (channel: string, message: string) => Promise<number>;
      (pub as unknown as { publish: typeof publish }).publish = (channel, message) =>
        publish(channel, message).catch((e: Error) => {
          this.logger.warn({ msg: 'live push: publish to Redis failed', error: e.message });
          return 0;
        });
      this.redis = { pub, sub };
      server.adapter(createAdapter(pub, sub, { key: `${this.config.redisPrefix}socket.io` }));
    }
    server.use((socket, next) => {
      this.admit(socket).then(
        () => next(),
        (e: unknown) => next(e instanceof HandshakeError ? e : new HandshakeError('INVALID_TOKEN', 'Invalid token.')),
      );
    });
    this.push.attach(server);
  }

  async onApplicationShutdown(): Promise<void> {
    if (!this.redis) return;
    // A client that is not connected would keep QUIT queued: it is just disconnected.
    await Promise.all([this.redis.pub, this.redis.sub].map((c) => (c.status === 'ready' ? c.quit().catch(() => c.disconnect()) : c.disconnect())));
  }

  /** Authenticates the handshake and joins the caller's rooms. */
  private async admit(socket: Socket): Promise<void> {
    const actor = await this.authenticate(tokenOf(socket));
    const scope = actor.companyId ? Scope.company(actor.companyId) : null;
    const company = scope ? [rooms.company(scope), ...(actor.type === 'company' ? [rooms.dispatch(scope)] : [])] : [];
    await socket.join([rooms.user(actor.id), rooms.token(actor.jti), ...company]);
  }

  private async authenticate(token: string | undefined): Promise<Actor> {
    if (!token) throw new HandshakeError('UNAUTHENTICATED', 'Authentication required: send the bearer token as auth.token.');
    let claims: TokenClaims;
    try {
      claims = await this.jwt.verifyAsync<TokenClaims>(token, { algorithms: ['HS256'] });
    } catch (e) {
      if ((e as Error).name === 'TokenExpiredError') throw new HandshakeError('TOKEN_EXPIRED', 'Token has expired.');
      throw new HandshakeError('INVALID_TOKEN', 'Invalid token.');
    }
    if (!isUuid(claims.jti) || !isUuid(claims.sub)) throw new HandshakeError('INVALID_TOKEN', 'Invalid token.');
    let actor: Actor;
    try {
      actor = await this.actors.resolve(claims);
    } catch (e) {
      if (e instanceof ApiError) throw new HandshakeError(e.code, e.message);
      throw e;
    }
    if (actor.kind === 'admin') throw new HandshakeError('WRONG_ACTOR', 'Administrator tokens are valid on admin routes only.');
    if (actor.status !== 'active') throw new HandshakeError('USER_INACTIVE', 'This account is inactive.');
    if (actor.companyStatus === 'inactive') throw new HandshakeError('COMPANY_INACTIVE', 'This company is inactive.');
    if (actor.type !== 'company' && (!actor.hasRoleRecord || !actor.companyId)) throw new HandshakeError('NOT_A_MEMBER', `This account is not a ${actor.type} of any active company.`);
    return actor;
  }
}
