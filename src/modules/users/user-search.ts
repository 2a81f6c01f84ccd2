/**
 * SQL for other modules' list searches: whether the user whose id is in `idColumn` has a name or
 * e-mail matching the ILIKE pattern bound as `:param`. The users module owns this SQL, so a change to
 * the users table is made here, not in each list.
 *
 * @deprecated SQL text of the users module inside another module's statement names the `users` table
 * there (issue #24, docs/data-layer.md "No SQL text of one module names another module's table"). Kept
 * exported while its callers are converted; the replacement is a typed method of `UsersService` (the
 * ids of the company's users matching a text), to be added with its first caller.
 */
export function userNameOrEmailMatches(idColumn: string, param = 'q'): string {
  return `EXISTS (SELECT 1 FROM users u WHERE u.id = ${idColumn} AND (u.name ILIKE :${param} OR u.email ILIKE :${param}))`;
}

/**
 * SQL for the display name of the user whose id is in `idColumn` (a scalar subquery), so another module's read stays one statement.
 *
 * @deprecated SQL text of the users module inside another module's statement (issue #24): read the
 * names of a page's users in one statement with `UsersService.names(ids)` instead. Kept exported while
 * its callers are converted.
 */
export function userNameSql(idColumn: string): string {
  return `(SELECT u.name FROM users u WHERE u.id = ${idColumn})`;
}
