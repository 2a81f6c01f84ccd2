-- JobArrivalRepository: statement snapshots (test/database/sql-snapshots.spec.ts; UPDATE_SQL_SNAPSHOTS=1 rewrites)

-- JobArrivalRepository.ofDay
SELECT job_id, driver_id, scheduled_date::text AS scheduled_date, planned_at, expected_at, arrived_at, told_at, on_the_way_at FROM job_arrivals WHERE company_id = $1 AND ((driver_id = $2 AND scheduled_date = $3::date) OR job_id = ANY($4::uuid[]));

-- JobArrivalRepository.remove
DELETE FROM job_arrivals WHERE company_id = $1 AND job_id = ANY($2::uuid[]);

-- JobArrivalRepository.save
INSERT INTO job_arrivals (job_id, company_id, driver_id, scheduled_date, planned_at, expected_at, arrived_at, told_at, on_the_way_at, computed_at) SELECT v.job_id, $1, v.driver_id, v.scheduled_date, v.planned_at, v.expected_at, v.arrived_at, v.told_at, v.on_the_way_at, now() FROM unnest($2::uuid[], $3::uuid[], $4::date[], $5::timestamptz[], $6::timestamptz[], $7::timestamptz[], $8::timestamptz[], $9::timestamptz[]) AS v (job_id, driver_id, scheduled_date, planned_at, expected_at, arrived_at, told_at, on_the_way_at) ON CONFLICT (job_id) DO UPDATE SET driver_id = EXCLUDED.driver_id, scheduled_date = EXCLUDED.scheduled_date, planned_at = EXCLUDED.planned_at, expected_at = EXCLUDED.expected_at, arrived_at = EXCLUDED.arrived_at, told_at = EXCLUDED.told_at, on_the_way_at = EXCLUDED.on_the_way_at, computed_at = now() WHERE job_arrivals.company_id = $1;

-- JobArrivalRepository.serialiseDay
SELECT pg_advisory_xact_lock(hashtext($1));
