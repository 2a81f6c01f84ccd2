/**
 * SQL for other modules' list searches: whether the user whose id is in `idColumn` has a name or
 * e-mail matching the ILIKE pattern bound as `:param`. The users module owns this SQL, so a change to
 * the users table is made here, not in each list.
 */
export function userNameOrEmailMatches(idColumn: string, param = 'q'): string {
  return `EXISTS (SELECT 1 FROM users u WHERE u.id = ${idColumn} AND (u.name ILIKE :${param} OR u.email ILIKE :${param}))`;
}

/** SQL for the display name of the user whose id is in `idColumn` (a scalar subquery), so another module's read stays one statement. */
export function userNameSql(idColumn: string): string {
  return `(SELECT u.name FROM users u WHERE u.id = ${idColumn})`;
}
