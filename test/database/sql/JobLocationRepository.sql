-- JobLocationRepository: statement snapshots (test/database/sql-snapshots.spec.ts; UPDATE_SQL_SNAPSHOTS=1 rewrites)

-- JobLocationRepository.countOfJob
SELECT count(*)::int AS n FROM job_locations WHERE job_id = $1 AND company_id = $2;

-- JobLocationRepository.get
SELECT "JobLocation"."id" AS "JobLocation_id", "JobLocation"."company_id" AS "JobLocation_company_id", "JobLocation"."job_id" AS "JobLocation_job_id", "JobLocation"."driver_id" AS "JobLocation_driver_id", "JobLocation"."lat" AS "JobLocation_lat", "JobLocation"."lng" AS "JobLocation_lng", "JobLocation"."accuracy_m" AS "JobLocation_accuracy_m", "JobLocation"."heading" AS "JobLocation_heading", "JobLocation"."speed_mps" AS "JobLocation_speed_mps", "JobLocation"."recorded_at" AS "JobLocation_recorded_at", "JobLocation"."created_at" AS "JobLocation_created_at" FROM "job_locations" "JobLocation" WHERE (("JobLocation"."id" = $1) AND ("JobLocation"."company_id" = $2)) LIMIT 1;

-- JobLocationRepository.insert
INSERT INTO "job_locations"("id", "company_id", "job_id", "driver_id", "lat", "lng", "accuracy_m", "heading", "speed_mps", "recorded_at", "created_at") VALUES (DEFAULT, $1, $2, $3, $4, $5, $6, $7, $8, $9, DEFAULT) RETURNING "id", "created_at";

-- JobLocationRepository.latest
SELECT "p"."id" AS "p_id", "p"."company_id" AS "p_company_id", "p"."job_id" AS "p_job_id", "p"."driver_id" AS "p_driver_id", "p"."lat" AS "p_lat", "p"."lng" AS "p_lng", "p"."accuracy_m" AS "p_accuracy_m", "p"."heading" AS "p_heading", "p"."speed_mps" AS "p_speed_mps", "p"."recorded_at" AS "p_recorded_at", "p"."created_at" AS "p_created_at" FROM "job_locations" "p" WHERE "p"."company_id" = $1 ORDER BY "p"."created_at" DESC, "p"."id" DESC;

-- JobLocationRepository.sentWithinASecond
SELECT 1 FROM job_locations WHERE driver_id = $1 AND company_id = $2 AND created_at > clock_timestamp() - interval '1 second' LIMIT 1;

-- JobLocationRepository.serialiseDriver
SELECT pg_advisory_xact_lock(hashtext($1));
