-- AuthTokenRepository: statement snapshots (test/database/sql-snapshots.spec.ts; UPDATE_SQL_SNAPSHOTS=1 rewrites)

-- AuthTokenRepository.insert
INSERT INTO "auth_tokens"("jti", "user_id", "admin_id", "expires_at", "revoked_at", "created_at") VALUES ($1, $2, $3, $4, DEFAULT, DEFAULT) RETURNING "created_at";

-- AuthTokenRepository.revoke
UPDATE auth_tokens SET revoked_at = now() WHERE jti = $1 AND revoked_at IS NULL RETURNING jti, user_id;

-- AuthTokenRepository.revokeAllOf (user)
UPDATE auth_tokens SET revoked_at = now() WHERE user_id = $1 AND revoked_at IS NULL AND ($2::uuid IS NULL OR jti <> $2::uuid) RETURNING jti, user_id;

-- AuthTokenRepository.revokeAllOf (admin)
UPDATE auth_tokens SET revoked_at = now() WHERE admin_id = $1 AND revoked_at IS NULL AND ($2::uuid IS NULL OR jti <> $2::uuid) RETURNING jti, user_id;

-- AuthTokenRepository.revokeLive
UPDATE "auth_tokens" SET "revoked_at" = now() WHERE "jti" = $1 AND "revoked_at" IS NULL;
