-- OneTimeCodeRepository: statement snapshots (test/database/sql-snapshots.spec.ts; UPDATE_SQL_SNAPSHOTS=1 rewrites)

-- OneTimeCodeRepository.consume
UPDATE one_time_codes SET consumed_at = now() WHERE id = $1;

-- OneTimeCodeRepository.consumeLive
UPDATE one_time_codes SET consumed_at = now() WHERE audience = $1 AND lower(email) = lower($2) AND purpose = $3 AND consumed_at IS NULL;

-- OneTimeCodeRepository.countTry
UPDATE one_time_codes SET attempts = attempts + 1 WHERE id = $1;

-- OneTimeCodeRepository.insert
INSERT INTO "one_time_codes"("id", "audience", "email", "purpose", "code_hash", "expires_at", "attempts", "consumed_at", "created_at") VALUES (DEFAULT, $1, $2, $3, $4, $5, DEFAULT, DEFAULT, DEFAULT) RETURNING "id", "attempts", "created_at";

-- OneTimeCodeRepository.lockLatestLive
SELECT id, code_hash, attempts, expires_at FROM one_time_codes WHERE audience = $1 AND lower(email) = lower($2) AND purpose = $3 AND consumed_at IS NULL ORDER BY created_at DESC LIMIT 1 FOR UPDATE;
