-- AdminRepository: statement snapshots (test/database/sql-snapshots.spec.ts; UPDATE_SQL_SNAPSHOTS=1 rewrites)

-- AdminRepository.clearFailures
UPDATE admins SET failed_logins = 0, locked_until = NULL WHERE id = $1 AND failed_logins > 0;

-- AdminRepository.credentialsByEmail
SELECT id, password_hash, failed_logins, locked_until FROM admins WHERE lower(email) = lower($1);

-- AdminRepository.emailTaken
SELECT 1 FROM admins WHERE lower(email) = lower($1);

-- AdminRepository.idByEmail
SELECT id FROM admins WHERE lower(email) = lower($1);

-- AdminRepository.insert
INSERT INTO admins (name, email, password_hash) VALUES ($1, $2, $3) RETURNING id;

-- AdminRepository.lockByEmail
SELECT id FROM admins WHERE lower(email) = lower($1) FOR UPDATE;

-- AdminRepository.lockFor
UPDATE admins SET locked_until = now() + make_interval(secs => $2) WHERE id = $1;

-- AdminRepository.passwordHashOf
SELECT password_hash FROM admins WHERE id = $1;

-- AdminRepository.profile
SELECT id, name, email, created_at FROM admins WHERE id = $1;

-- AdminRepository.recordFailure
UPDATE admins SET failed_logins = failed_logins + 1, updated_at = now() WHERE id = $1 RETURNING failed_logins;

-- AdminRepository.resetPassword
UPDATE admins SET password_hash = $2, failed_logins = 0, locked_until = NULL, updated_at = now() WHERE id = $1;

-- AdminRepository.setPassword
UPDATE admins SET password_hash = $2, updated_at = now() WHERE id = $1;
