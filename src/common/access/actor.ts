import { SetMetadata } from '@nestjs/common';
import { pipelessParam } from '../http/pipeless-param';
import { Scope } from './scope';

/** Who is calling, resolved once per request from the bearer token. */
export interface Actor {
  kind: 'user' | 'admin';
  id: string;
  type: 'company' | 'customer' | 'driver' | 'admin';
  name: string;
  email: string;
  status: 'active' | 'inactive';
  /** The company the user belongs to (company users after `/company/create`, customers, drivers). */
  companyId: string | null;
  companyStatus: 'active' | 'inactive' | null;
  /** The company's IANA time zone (read with the caller: dates "today" need no second query); null without a company. */
  companyTimezone: string | null;
  /** The user has its role record (customer or driver profile; for company users: a company). */
  hasRoleRecord: boolean;
  /** The token's id and expiry. */
  jti: string;
  tokenExpiresAt: Date;
  /**
   * The caller's standing flags that its role record's module reads with the caller (`CallerSql` flags, e.g.
   * the customers module's `demerit_blocked`): what is set when the request arrived (the caller's statement, or a kept
   * caller no change has dropped since: `CallerChanges`).
   * Read them through that module's service, which registered them. Absent on actors not resolved from a token.
   */
  flags?: readonly string[];
}

/** The resolved caller of a token route (undefined on PUB/NONE routes). */
export const CurrentActor = pipelessParam((_data: unknown, req: { actor?: Actor }): Actor | undefined => {
  return req.actor;
});

/** The caller's company id (`Scope.of(actor).companyId`): 403 `NO_COMPANY` when the caller has no live company. */
export const CompanyId = pipelessParam((_data: unknown, req: { actor?: Actor }): string => {
  return Scope.of(req.actor).companyId;
});

export const CALLER_PROFILE_METADATA = 'haulops:caller-profile';

/**
 * The route reads the caller's profile: the caller's query brings it in the same statement (the
 * ActorResolver's registered profile source), and `@CallerProfile()` hands it over (undefined when no
 * source is registered: the route then reads it itself).
 */
export const WithCallerProfile = () => SetMetadata(CALLER_PROFILE_METADATA, true);

/** The profile the caller's query brought on a `@WithCallerProfile()` route, or undefined. */
export const CallerProfile = pipelessParam((_data: unknown, req: { callerProfile?: unknown }): unknown => {
  return req.callerProfile;
});
