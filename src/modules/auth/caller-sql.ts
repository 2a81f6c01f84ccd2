/**
 * The token's part of the caller's statement (`CallerSql#token` in src/common/access/jwt.strategy.ts,
 * registered by AuthModule): the live token `t` of the verified claims ($1 the jti, $2 the subject).
 */
export const CALLER_TOKEN_SQL = {
  from: 'auth_tokens t',
  userWhere: 't.jti = $1 AND t.user_id = $2 AND t.revoked_at IS NULL',
  adminWhere: 't.jti = $1 AND t.admin_id = $2 AND t.revoked_at IS NULL',
};
