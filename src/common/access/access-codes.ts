/** The seed's access codes (api-seed.md §4, §5). Every route declares exactly one with `@Access`. */
export const ACCESS_CODES = ['PUB', 'PUB-T', 'NONE', 'TOK', 'TOK-ACT', 'TOK-T', 'CO', 'CO-B', 'CU', 'CU-B', 'DR', 'DR-B', 'DR-IN', 'AD'] as const;
export type AccessCode = (typeof ACCESS_CODES)[number];

/** Codes that need no token. */
export const OPEN_CODES: ReadonlySet<AccessCode> = new Set(['PUB', 'PUB-T', 'NONE']);
/** Codes throttled per client address per route (seed §8). */
export const THROTTLED_CODES: ReadonlySet<AccessCode> = new Set(['PUB-T', 'TOK-T']);

export interface AccessRule {
  /** Actor type the token must carry; undefined = any non-admin actor. */
  actor?: 'company' | 'customer' | 'driver' | 'admin';
  /** The user must be `active`. */
  active?: boolean;
  /** The user must have its role record: a company for company users, a customer or driver profile. */
  roleRecord?: boolean;
  /** The driver must have an open attendance. */
  checkedIn?: boolean;
  description: string;
}

export const ACCESS_RULES: Record<AccessCode, AccessRule> = {
  PUB: { description: 'No token required.' },
  'PUB-T': { description: 'No token required; throttled to 5 requests a minute per client address.' },
  NONE: { description: 'No access rule applied.' },
  TOK: { description: 'Bearer token of any non-admin actor.' },
  'TOK-ACT': { active: true, description: 'Bearer token of an active non-admin user.' },
  'TOK-T': { description: 'Bearer token of any non-admin actor; throttled to 5 requests a minute per client address.' },
  CO: { actor: 'company', roleRecord: true, description: 'Company user of an active company.' },
  'CO-B': { actor: 'company', description: 'Token of actor type company.' },
  CU: { actor: 'customer', active: true, roleRecord: true, description: 'Active customer of an active company.' },
  'CU-B': { actor: 'customer', roleRecord: true, description: 'Customer user (no active-status check).' },
  DR: { actor: 'driver', active: true, roleRecord: true, description: 'Active driver of an active company.' },
  'DR-B': { actor: 'driver', roleRecord: true, description: 'Driver user (no active-status check).' },
  'DR-IN': { actor: 'driver', active: true, roleRecord: true, checkedIn: true, description: 'Active driver, currently checked in.' },
  AD: { actor: 'admin', description: 'Administrator token.' },
};
