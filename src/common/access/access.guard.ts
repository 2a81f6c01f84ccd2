import { ExecutionContext, Injectable, Logger } from '@nestjs/common';
import { Reflector } from '@nestjs/core';
import { AuthGuard } from '@nestjs/passport';
import { ApiError } from '../http/api-error';
import { ThrottleGuard } from '../throttle/throttle.guard';
import { ACCESS_METADATA } from './access.decorator';
import { ACCESS_RULES, AccessCode, OPEN_CODES, THROTTLED_CODES } from './access-codes';
import { Actor, CALLER_PROFILE_METADATA } from './actor';
import { ActorResolver, JwtStrategy, TokenClaims } from './jwt.strategy';
import { noCompany } from './scope';

/**
 * The global guard: reads the route's `@Access` code and enforces it (seed §4–5, domain.md §2).
 * A route without a code is refused (default deny).
 */
@Injectable()
export class AccessGuard extends AuthGuard('jwt') {
  private readonly logger = new Logger('AccessGuard');

  constructor(
    private readonly reflector: Reflector,
    private readonly throttle: ThrottleGuard,
    private readonly actors: ActorResolver,
    private readonly jwt: JwtStrategy,
  ) {
    super();
  }

  async canActivate(context: ExecutionContext): Promise<boolean> {
    const code = this.reflector.getAllAndOverride<AccessCode | undefined>(ACCESS_METADATA, [context.getHandler(), context.getClass()]);
    if (!code) {
      this.logger.error(`Route ${context.getClass().name}.${context.getHandler().name} declares no access code; refused.`);
      throw ApiError.forbidden('ACCESS_NOT_DECLARED', 'This route is not available.');
    }
    if (THROTTLED_CODES.has(code)) await this.throttle.canActivate(context);
    if (OPEN_CODES.has(code)) return true;

    // The request: the context's first argument (`switchToHttp().getRequest()` without the closures it adds per call).
    const req = context.getArgByIndex<{ user?: TokenClaims | Actor; actor?: Actor; callerProfile?: unknown; headers: Record<string, string | string[] | undefined> }>(0);
    // A token this app verified before is taken from the strategy's memory without passport's per-request
    // context; any other (new, expired, malformed, missing) goes through passport-jwt as before.
    const known = this.jwt.knownClaims(req as Parameters<JwtStrategy['knownClaims']>[0]);
    if (known) req.user = known;
    else await super.canActivate(context);
    let actor: Actor;
    if (this.reflector.get<boolean | undefined>(CALLER_PROFILE_METADATA, context.getHandler())) {
      const resolved = await this.actors.resolveWithProfile(req.user as TokenClaims);
      actor = resolved.actor;
      req.callerProfile = resolved.profile;
    } else {
      actor = await this.actors.resolve(req.user as TokenClaims);
    }
    req.user = req.actor = actor;
    await this.enforce(code, actor);
    return true;
  }

  /** Passport's outcome: any failure to authenticate is a 401 with a precise code. */
  handleRequest<T>(err: unknown, user: T, info: unknown): T {
    if (err) throw err instanceof ApiError ? err : ApiError.unauthorized('Invalid token.', 'INVALID_TOKEN');
    if (!user) {
      const name = (info as Error | undefined)?.name;
      const message = (info as Error | undefined)?.message ?? '';
      if (name === 'TokenExpiredError') throw ApiError.unauthorized('Token has expired.', 'TOKEN_EXPIRED');
      if (/no auth token/i.test(message)) throw ApiError.unauthorized('Authentication required.', 'UNAUTHENTICATED');
      throw ApiError.unauthorized('Invalid token.', 'INVALID_TOKEN');
    }
    return user;
  }

  private async enforce(code: AccessCode, actor: Actor): Promise<void> {
    const rule = ACCESS_RULES[code];
    if (rule.actor === 'admin') {
      if (actor.kind !== 'admin') throw ApiError.forbidden('WRONG_ACTOR', 'This route is for administrators.');
      return;
    }
    // Admin tokens are valid on admin routes only.
    if (actor.kind === 'admin') throw ApiError.forbidden('WRONG_ACTOR', 'Administrator tokens are valid on admin routes only.');
    if (rule.actor && actor.type !== rule.actor) {
      throw ApiError.forbidden('WRONG_ACTOR', `This route is for ${rule.actor} users.`);
    }
    if (rule.roleRecord && !actor.hasRoleRecord) {
      if (actor.type === 'company') throw noCompany(actor.type);
      throw ApiError.forbidden('NOT_A_MEMBER', `This account is not a ${actor.type} of any company.`);
    }
    // A member whose company is gone (deleted) has no scope: 403, never an unscoped query.
    if (rule.roleRecord && !actor.companyId) throw noCompany(actor.type);
    if (rule.active && actor.status !== 'active') throw ApiError.forbidden('USER_INACTIVE', 'This account is inactive.');
    if (rule.actor && actor.companyStatus === 'inactive') {
      throw ApiError.forbidden('COMPANY_INACTIVE', 'This company is inactive.');
    }
    if (rule.checkedIn) {
      const open = await this.actors.checkedIn(actor.id);
      if (!open) throw ApiError.forbidden('NOT_CHECKED_IN', 'Check in first.');
    }
  }
}
