-- JobFactsRepository: statement snapshots (test/database/sql-snapshots.spec.ts; UPDATE_SQL_SNAPSHOTS=1 rewrites)

-- JobFactsRepository.detail
SELECT users_name($2::uuid) AS customer, catalogue_specification_name($3::uuid) AS specification, catalogue_waste_type_name($4::uuid) AS waste_type, (SELECT count(*)::int FROM job_evidence WHERE job_id = $1 AND company_id = $5) AS evidence, (SELECT count(*)::int FROM job_issues WHERE job_id = $1 AND company_id = $5) AS issues, (SELECT count(*)::int FROM job_issues WHERE job_id = $1 AND company_id = $5 AND status = 'open' AND blocking) AS blocking;

-- JobFactsRepository.track
SELECT (SELECT t.net_kg FROM station_tickets t WHERE t.job_id = $1 AND t.company_id = $2) AS net_kg, (SELECT coalesce(round(sum(2 * 6371008.8 * asin(least(1, sqrt(power(sin(radians(p.lat - p.plat) / 2), 2) + cos(radians(p.plat)) * cos(radians(p.lat)) * power(sin(radians(p.lng - p.plng) / 2), 2)))))), 0)::int FROM (SELECT l.lat, l.lng, lag(l.lat) OVER w AS plat, lag(l.lng) OVER w AS plng FROM job_locations l WHERE l.job_id = $1 AND l.company_id = $2 WINDOW w AS (ORDER BY l.recorded_at, l.id)) p WHERE p.plat IS NOT NULL) AS meters;
