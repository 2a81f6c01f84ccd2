/** A violation's states (domain.md §7): open → disputed → upheld | waived, and open → upheld. */
export const VIOLATION_STATUSES = ['open', 'disputed', 'upheld', 'waived'] as const;
export type ViolationStatus = (typeof VIOLATION_STATUSES)[number];
/** How the company closes a dispute. */
export const RESOLUTIONS = ['upheld', 'waived'] as const;
export type Resolution = (typeof RESOLUTIONS)[number];
export const DISPUTE_AUTHOR_TYPES = ['company', 'customer'] as const;
export type DisputeAuthorType = (typeof DISPUTE_AUTHOR_TYPES)[number];
/** Order states that take violations: the container was on site. */
export const VIOLATION_ORDER_STATUSES = ['delivered', 'completed'] as const;
/** The states a violation is resolved in. */
export const RESOLVED: readonly ViolationStatus[] = ['upheld', 'waived'];
/** Most policies recorded at once, most evidence files per violation or message. */
export const MAX_POLICIES = 20;
export const MAX_EVIDENCE = 10;
