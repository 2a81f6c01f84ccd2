-- ContainerCalendarRepository: statement snapshots (test/database/sql-snapshots.spec.ts; UPDATE_SQL_SNAPSHOTS=1 rewrites)

-- ContainerCalendarRepository.days (all lots)
SELECT c.day::text AS day, c.total, c.held FROM asset_specifications s CROSS JOIN LATERAL catalogue_container_days(s.company_id, s.id, $3::uuid, $4::date, $5::date, NULL) c WHERE s.id = $2 AND s.company_id = $1 AND s.deleted_at IS NULL ORDER BY c.day;

-- ContainerCalendarRepository.days (a lot, active only)
SELECT c.day::text AS day, c.total, c.held FROM asset_specifications s CROSS JOIN LATERAL catalogue_container_days(s.company_id, s.id, $3::uuid, $4::date, $5::date, NULL) c WHERE s.id = $2 AND s.company_id = $1 AND s.deleted_at IS NULL AND s.active ORDER BY c.day;

-- ContainerCalendarRepository.hold
SELECT catalogue_hold_container($1, $2, $3, $4, $5, $6)::text[] AS busy;

-- ContainerCalendarRepository.pin (first free)
SELECT catalogue_pin_container($1, $2, $3, $4, $5, $6, $7) AS pin;

-- ContainerCalendarRepository.pin (chosen)
SELECT catalogue_pin_container($1, $2, $3, $4, $5, $6, $7) AS pin;

-- ContainerCalendarRepository.release
UPDATE container_reservations SET released_at = now(), updated_at = now() WHERE company_id = $1 AND order_id = $2 AND released_at IS NULL;
