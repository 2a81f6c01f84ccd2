import { pipelessParam } from '../http/pipeless-param';
import { ApiError } from '../http/api-error';
import type { Actor } from './actor';

export type ScopeKind = 'company' | 'customer' | 'driver';

/**
 * Whose records a caller may reach: the input of the tenant policy (`tenant-policy.ts`). Built from
 * the actor once per request. A company user reaches the company's records; a customer the
 * company's shared records (catalogue, promotions) and their own (orders, addresses, change
 * requests); a driver the shared records and their own (jobs). A caller without a live company is
 * 403 `NO_COMPANY`, never an unscoped query.
 */
export class Scope {
  private constructor(
    readonly kind: ScopeKind,
    readonly companyId: string,
    /** The caller (null for the system). */
    readonly actorId: string | null,
    /** The company's time zone when the caller's query brought it (Scope.of); else null and read when needed. */
    readonly timezone: string | null = null,
  ) {}

  /** The caller's scope; 403 when the caller has no live company. */
  static of(actor: Actor | undefined): Scope {
    if (!actor) throw ApiError.unauthorized('Authentication required.', 'UNAUTHENTICATED');
    if (actor.kind === 'admin') throw ApiError.forbidden('WRONG_ACTOR', 'Administrator tokens act on no company of their own.');
    if (!actor.companyId) throw noCompany(actor.type);
    return new Scope(actor.type as ScopeKind, actor.companyId, actor.id, actor.companyTimezone);
  }

  /** The whole company: its users, the system (auto-approval, relay), an administrator acting on it. */
  static company(companyId: string, actorId: string | null = null): Scope {
    return new Scope('company', companyId, actorId);
  }

  /** The customer's own records within the company. */
  static customer(companyId: string, customerId: string): Scope {
    return new Scope('customer', companyId, customerId);
  }

  /** The customer whose records this scope is limited to (customer scope only). */
  get customerId(): string | undefined {
    return this.kind === 'customer' ? (this.actorId ?? undefined) : undefined;
  }

  /** The driver whose records this scope is limited to (driver scope only). */
  get driverId(): string | undefined {
    return this.kind === 'driver' ? (this.actorId ?? undefined) : undefined;
  }

  /**
   * The same caller with the whole company's reach, for a rule the policy cannot express by columns
   * alone (a driver reading an order they have a job on). Use only after checking that rule.
   */
  widened(): Scope {
    return new Scope('company', this.companyId, this.actorId, this.timezone);
  }
}

export function noCompany(type: Actor['type']): ApiError {
  return type === 'company'
    ? ApiError.forbidden('NO_COMPANY', 'Create your company first.')
    : ApiError.forbidden('NO_COMPANY', 'This account belongs to no active company.');
}

/** The caller's scope (`Scope.of(actor)`): 403 when the caller has no live company. */
export const CurrentScope = pipelessParam((_data: unknown, req: { actor?: Actor }): Scope => {
  return Scope.of(req.actor);
});

/**
 * Work across every company that no tenant caller does: the outbox relay's and the scheduler's sweeps
 * (overdue orders, renewals, reconciliation, leaked holds), each naming why. A repository method on a
 * tenant table takes a `Scope` (one company, one caller), a `PlatformReach` (an administrator's lists)
 * or this; nothing else (test/project/data-layer.spec.ts, `unscoped`).
 */
export class SystemReach {
  private constructor(readonly purpose: string) {}

  static of(purpose: string): SystemReach {
    return new SystemReach(purpose);
  }
}
