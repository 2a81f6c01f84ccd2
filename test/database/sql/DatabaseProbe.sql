-- DatabaseProbe: statement snapshots (test/database/sql-snapshots.spec.ts; UPDATE_SQL_SNAPSHOTS=1 rewrites)

-- DatabaseProbe.ping
SELECT 1;
