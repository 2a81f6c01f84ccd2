-- ContainerCalendarRepository: statement snapshots (test/database/sql-snapshots.spec.ts; UPDATE_SQL_SNAPSHOTS=1 rewrites)

-- ContainerCalendarRepository.busy
SELECT catalogue_container_busy($1, $2, $3, $4, $5)::text[] AS busy;

-- ContainerCalendarRepository.days (all lots)
SELECT c.day::text AS day, c.total, c.held FROM asset_specifications s CROSS JOIN LATERAL catalogue_container_days(s.company_id, s.id, $3::uuid, $4::date, $5::date, NULL) c WHERE s.id = $2 AND s.company_id = $1 AND s.deleted_at IS NULL ORDER BY c.day;

-- ContainerCalendarRepository.days (a lot, active only)
SELECT c.day::text AS day, c.total, c.held FROM asset_specifications s CROSS JOIN LATERAL catalogue_container_days(s.company_id, s.id, $3::uuid, $4::date, $5::date, NULL) c WHERE s.id = $2 AND s.company_id = $1 AND s.deleted_at IS NULL AND s.active ORDER BY c.day;

-- ContainerCalendarRepository.dispatchDay
SELECT (SELECT coalesce(json_agg(json_build_object('spec', x.spec, 'lot', x.lot, 'n', x.n) ORDER BY x.spec, x.lot NULLS LAST), '[]') FROM (SELECT f.asset_specification_id AS spec, f.home_lot_id AS lot, count(*)::int AS n FROM catalogue_free_assets($1, NULL, NULL, $2::date, $2::date) f GROUP BY 1, 2) x) AS free, (SELECT coalesce(json_agg(l), '[]') FROM ( SELECT r.order_id::text AS order_id, (CASE WHEN r.asset_id IS NOT NULL AND r.lot_id IS NOT NULL THEN array[r.lot_id] ELSE coalesce((SELECT array_agg(DISTINCT f.home_lot_id) FROM catalogue_free_assets($1, r.order_id, r.asset_specification_id, $2::date, $2::date) f WHERE f.home_lot_id IS NOT NULL), '{}') END)::text[] AS lots FROM container_reservations r WHERE r.company_id = $1 AND r.order_id = ANY($3::uuid[]) AND r.released_at IS NULL) l) AS loading;

-- ContainerCalendarRepository.freeAssets
SELECT f.asset_id AS id FROM catalogue_free_assets($1, $2, $3, $4::date, $5::date) f;

-- ContainerCalendarRepository.freeForHolds
SELECT r.order_id::text AS order_id, coalesce((SELECT array_agg(f.asset_id::text ORDER BY (f.home_lot_id IS NOT DISTINCT FROM r.lot_id) DESC, f.code, f.asset_id) FROM catalogue_free_assets($1, r.order_id, r.asset_specification_id, r.starts_on, r.ends_on) f), '{}')::text[] AS assets FROM container_reservations r WHERE r.company_id = $1 AND r.order_id = ANY($2::uuid[]) AND r.released_at IS NULL ORDER BY r.order_id;

-- ContainerCalendarRepository.hold
SELECT catalogue_hold_container($1, $2, $3, $4, $5, $6)::text[] AS busy;

-- ContainerCalendarRepository.loadingLots
SELECT l.* FROM ( SELECT r.order_id::text AS order_id, (CASE WHEN r.asset_id IS NOT NULL AND r.lot_id IS NOT NULL THEN array[r.lot_id] ELSE coalesce((SELECT array_agg(DISTINCT f.home_lot_id) FROM catalogue_free_assets($1, r.order_id, r.asset_specification_id, $2::date, $2::date) f WHERE f.home_lot_id IS NOT NULL), '{}') END)::text[] AS lots FROM container_reservations r WHERE r.company_id = $1 AND r.order_id = ANY($3::uuid[]) AND r.released_at IS NULL) l;

-- ContainerCalendarRepository.pin (first free)
SELECT catalogue_pin_container($1, $2, $3, $4, $5, $6, $7) AS pin;

-- ContainerCalendarRepository.pin (chosen)
SELECT catalogue_pin_container($1, $2, $3, $4, $5, $6, $7) AS pin;

-- ContainerCalendarRepository.release
UPDATE container_reservations SET released_at = now(), updated_at = now() WHERE company_id = $1 AND order_id = $2 AND released_at IS NULL;
