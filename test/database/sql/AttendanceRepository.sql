-- AttendanceRepository: statement snapshots (test/database/sql-snapshots.spec.ts; UPDATE_SQL_SNAPSHOTS=1 rewrites)

-- AttendanceRepository.between
SELECT "a"."id" AS "a_id", "a"."created_at" AS "a_created_at", "a"."updated_at" AS "a_updated_at", "a"."company_id" AS "a_company_id", "a"."driver_id" AS "a_driver_id", "a"."work_date" AS "a_work_date", "a"."status" AS "a_status", "a"."checked_in_at" AS "a_checked_in_at", "a"."checked_out_at" AS "a_checked_out_at", "a"."check_in_lat" AS "a_check_in_lat", "a"."check_in_lng" AS "a_check_in_lng", "a"."check_out_lat" AS "a_check_out_lat", "a"."check_out_lng" AS "a_check_out_lng", "a"."truck_id" AS "a_truck_id", (SELECT coalesce(json_agg(json_build_object('id', b.id, 'kind', b.kind, 'started_at', b.started_at, 'ended_at', b.ended_at) ORDER BY b.started_at, b.id), '[]'::json) FROM attendance_breaks b WHERE b.attendance_id = "a"."id") AS "pauses" FROM "attendances" "a" WHERE "a"."company_id" = $1 AND "a"."work_date" BETWEEN $2 AND $3 AND "a"."driver_id" = $4 ORDER BY "a"."work_date" ASC;

-- AttendanceRepository.breaksOf
SELECT "AttendanceBreak"."id" AS "AttendanceBreak_id", "AttendanceBreak"."created_at" AS "AttendanceBreak_created_at", "AttendanceBreak"."updated_at" AS "AttendanceBreak_updated_at", "AttendanceBreak"."company_id" AS "AttendanceBreak_company_id", "AttendanceBreak"."attendance_id" AS "AttendanceBreak_attendance_id", "AttendanceBreak"."kind" AS "AttendanceBreak_kind", "AttendanceBreak"."started_at" AS "AttendanceBreak_started_at", "AttendanceBreak"."ended_at" AS "AttendanceBreak_ended_at" FROM "attendance_breaks" "AttendanceBreak" WHERE (("AttendanceBreak"."attendance_id" = $1) AND ("AttendanceBreak"."company_id" = $2));

-- AttendanceRepository.closeOpenPause
UPDATE "attendance_breaks" SET "ended_at" = GREATEST("started_at", $1), "updated_at" = CURRENT_TIMESTAMP WHERE "attendance_id" = $2 AND "company_id" = $3 AND "ended_at" IS NULL RETURNING "id", "started_at", "ended_at";

-- AttendanceRepository.currentWithPauses
SELECT "a"."id" AS "a_id", "a"."created_at" AS "a_created_at", "a"."updated_at" AS "a_updated_at", "a"."company_id" AS "a_company_id", "a"."driver_id" AS "a_driver_id", "a"."work_date" AS "a_work_date", "a"."status" AS "a_status", "a"."checked_in_at" AS "a_checked_in_at", "a"."checked_out_at" AS "a_checked_out_at", "a"."check_in_lat" AS "a_check_in_lat", "a"."check_in_lng" AS "a_check_in_lng", "a"."check_out_lat" AS "a_check_out_lat", "a"."check_out_lng" AS "a_check_out_lng", "a"."truck_id" AS "a_truck_id", (SELECT coalesce(json_agg(json_build_object('id', b.id, 'kind', b.kind, 'started_at', b.started_at, 'ended_at', b.ended_at) ORDER BY b.started_at, b.id), '[]'::json) FROM attendance_breaks b WHERE b.attendance_id = "a"."id") AS "pauses" FROM "attendances" "a" WHERE "a"."company_id" = $1 AND ("a"."work_date" = $2 OR "a"."status" IN ($3, $4)) ORDER BY CASE WHEN "a"."status" IN ('checked_in', 'on_break') THEN 0 ELSE 1 END ASC, "a"."work_date" DESC LIMIT 1;

-- AttendanceRepository.dayOf
SELECT "Attendance"."id" AS "Attendance_id", "Attendance"."created_at" AS "Attendance_created_at", "Attendance"."updated_at" AS "Attendance_updated_at", "Attendance"."company_id" AS "Attendance_company_id", "Attendance"."driver_id" AS "Attendance_driver_id", "Attendance"."work_date" AS "Attendance_work_date", "Attendance"."status" AS "Attendance_status", "Attendance"."checked_in_at" AS "Attendance_checked_in_at", "Attendance"."checked_out_at" AS "Attendance_checked_out_at", "Attendance"."check_in_lat" AS "Attendance_check_in_lat", "Attendance"."check_in_lng" AS "Attendance_check_in_lng", "Attendance"."check_out_lat" AS "Attendance_check_out_lat", "Attendance"."check_out_lng" AS "Attendance_check_out_lng", "Attendance"."truck_id" AS "Attendance_truck_id" FROM "attendances" "Attendance" WHERE (("Attendance"."company_id" = $1) AND ("Attendance"."driver_id" = $2) AND ("Attendance"."work_date" = $3)) LIMIT 1;

-- AttendanceRepository.findWithPauses
SELECT "a"."id" AS "a_id", "a"."created_at" AS "a_created_at", "a"."updated_at" AS "a_updated_at", "a"."company_id" AS "a_company_id", "a"."driver_id" AS "a_driver_id", "a"."work_date" AS "a_work_date", "a"."status" AS "a_status", "a"."checked_in_at" AS "a_checked_in_at", "a"."checked_out_at" AS "a_checked_out_at", "a"."check_in_lat" AS "a_check_in_lat", "a"."check_in_lng" AS "a_check_in_lng", "a"."check_out_lat" AS "a_check_out_lat", "a"."check_out_lng" AS "a_check_out_lng", "a"."truck_id" AS "a_truck_id", (SELECT coalesce(json_agg(json_build_object('id', b.id, 'kind', b.kind, 'started_at', b.started_at, 'ended_at', b.ended_at) ORDER BY b.started_at, b.id), '[]'::json) FROM attendance_breaks b WHERE b.attendance_id = "a"."id") AS "pauses" FROM "attendances" "a" WHERE "a"."company_id" = $1 AND "a"."id" = $2;

-- AttendanceRepository.hasOpenDay
SELECT 1 FROM attendances WHERE driver_id = $1 AND status IN ('checked_in', 'on_break') LIMIT 1;

-- AttendanceRepository.insertBreak
INSERT INTO "attendance_breaks"("id", "created_at", "updated_at", "company_id", "attendance_id", "kind", "started_at", "ended_at") VALUES (DEFAULT, DEFAULT, DEFAULT, $1, $2, $3, $4, DEFAULT) RETURNING "id", "created_at", "updated_at", "kind";

-- AttendanceRepository.insertDayUnlessExists
INSERT INTO "attendances"("id", "created_at", "updated_at", "company_id", "driver_id", "work_date", "status", "checked_in_at", "checked_out_at", "check_in_lat", "check_in_lng", "check_out_lat", "check_out_lng", "truck_id") VALUES (DEFAULT, DEFAULT, DEFAULT, $1, $2, $3, $4, $5, DEFAULT, $6, $7, DEFAULT, DEFAULT, $8) ON CONFLICT DO NOTHING RETURNING "id", "created_at", "updated_at";

-- AttendanceRepository.isOnBreak
SELECT 1 AS "row_exists" FROM (SELECT 1 AS dummy_column) "dummy_table" WHERE EXISTS (SELECT 1 FROM "attendances" "Attendance" WHERE (("Attendance"."company_id" = $1) AND ("Attendance"."driver_id" = $2) AND ("Attendance"."status" = $3))) LIMIT 1;

-- AttendanceRepository.lockDayOn
SELECT "a"."id" AS "a_id", "a"."created_at" AS "a_created_at", "a"."updated_at" AS "a_updated_at", "a"."company_id" AS "a_company_id", "a"."driver_id" AS "a_driver_id", "a"."work_date" AS "a_work_date", "a"."status" AS "a_status", "a"."checked_in_at" AS "a_checked_in_at", "a"."checked_out_at" AS "a_checked_out_at", "a"."check_in_lat" AS "a_check_in_lat", "a"."check_in_lng" AS "a_check_in_lng", "a"."check_out_lat" AS "a_check_out_lat", "a"."check_out_lng" AS "a_check_out_lng", "a"."truck_id" AS "a_truck_id" FROM "attendances" "a" WHERE "a"."company_id" = $1 AND "a"."work_date" = $2 FOR UPDATE;

-- AttendanceRepository.lockOpenDay
SELECT "a"."id" AS "a_id", "a"."created_at" AS "a_created_at", "a"."updated_at" AS "a_updated_at", "a"."company_id" AS "a_company_id", "a"."driver_id" AS "a_driver_id", "a"."work_date" AS "a_work_date", "a"."status" AS "a_status", "a"."checked_in_at" AS "a_checked_in_at", "a"."checked_out_at" AS "a_checked_out_at", "a"."check_in_lat" AS "a_check_in_lat", "a"."check_in_lng" AS "a_check_in_lng", "a"."check_out_lat" AS "a_check_out_lat", "a"."check_out_lng" AS "a_check_out_lng", "a"."truck_id" AS "a_truck_id" FROM "attendances" "a" WHERE "a"."company_id" = $1 AND "a"."status" IN ($2, $3) ORDER BY "a"."work_date" DESC FOR UPDATE;

-- AttendanceRepository.lockOpenDaysBefore
SELECT "a"."id" AS "a_id", "a"."created_at" AS "a_created_at", "a"."updated_at" AS "a_updated_at", "a"."company_id" AS "a_company_id", "a"."driver_id" AS "a_driver_id", "a"."work_date" AS "a_work_date", "a"."status" AS "a_status", "a"."checked_in_at" AS "a_checked_in_at", "a"."checked_out_at" AS "a_checked_out_at", "a"."check_in_lat" AS "a_check_in_lat", "a"."check_in_lng" AS "a_check_in_lng", "a"."check_out_lat" AS "a_check_out_lat", "a"."check_out_lng" AS "a_check_out_lng", "a"."truck_id" AS "a_truck_id", (("a"."work_date" + 1)::timestamp AT TIME ZONE $1) AS "day_end" FROM "attendances" "a" WHERE "a"."company_id" = $2 AND "a"."status" IN ($3, $4) AND "a"."work_date" <> $5 FOR UPDATE;

-- AttendanceRepository.on
SELECT "a"."id" AS "a_id", "a"."created_at" AS "a_created_at", "a"."updated_at" AS "a_updated_at", "a"."company_id" AS "a_company_id", "a"."driver_id" AS "a_driver_id", "a"."work_date" AS "a_work_date", "a"."status" AS "a_status", "a"."checked_in_at" AS "a_checked_in_at", "a"."checked_out_at" AS "a_checked_out_at", "a"."check_in_lat" AS "a_check_in_lat", "a"."check_in_lng" AS "a_check_in_lng", "a"."check_out_lat" AS "a_check_out_lat", "a"."check_out_lng" AS "a_check_out_lng", "a"."truck_id" AS "a_truck_id" FROM "attendances" "a" WHERE "a"."company_id" = $1 AND "a"."work_date" = $2 AND "a"."driver_id" IN ($3, $4);

-- AttendanceRepository.page (no filter)
SELECT "a"."id" AS "a_id", "a"."created_at" AS "a_created_at", "a"."updated_at" AS "a_updated_at", "a"."company_id" AS "a_company_id", "a"."driver_id" AS "a_driver_id", "a"."work_date" AS "a_work_date", "a"."status" AS "a_status", "a"."checked_in_at" AS "a_checked_in_at", "a"."checked_out_at" AS "a_checked_out_at", "a"."check_in_lat" AS "a_check_in_lat", "a"."check_in_lng" AS "a_check_in_lng", "a"."check_out_lat" AS "a_check_out_lat", "a"."check_out_lng" AS "a_check_out_lng", "a"."truck_id" AS "a_truck_id", (SELECT coalesce(json_agg(json_build_object('id', b.id, 'kind', b.kind, 'started_at', b.started_at, 'ended_at', b.ended_at) ORDER BY b.started_at, b.id), '[]'::json) FROM attendance_breaks b WHERE b.attendance_id = "a"."id") AS "pauses" FROM "attendances" "a" WHERE "a"."company_id" = $1 ORDER BY "a"."work_date" DESC, "a"."id" DESC LIMIT 20 OFFSET 0;
SELECT count(*)::int AS "n" FROM "attendances" "a" WHERE "a"."company_id" = $1;

-- AttendanceRepository.page (with filters)
SELECT "a"."id" AS "a_id", "a"."created_at" AS "a_created_at", "a"."updated_at" AS "a_updated_at", "a"."company_id" AS "a_company_id", "a"."driver_id" AS "a_driver_id", "a"."work_date" AS "a_work_date", "a"."status" AS "a_status", "a"."checked_in_at" AS "a_checked_in_at", "a"."checked_out_at" AS "a_checked_out_at", "a"."check_in_lat" AS "a_check_in_lat", "a"."check_in_lng" AS "a_check_in_lng", "a"."check_out_lat" AS "a_check_out_lat", "a"."check_out_lng" AS "a_check_out_lng", "a"."truck_id" AS "a_truck_id", (SELECT coalesce(json_agg(json_build_object('id', b.id, 'kind', b.kind, 'started_at', b.started_at, 'ended_at', b.ended_at) ORDER BY b.started_at, b.id), '[]'::json) FROM attendance_breaks b WHERE b.attendance_id = "a"."id") AS "pauses" FROM "attendances" "a" WHERE "a"."company_id" = $1 AND "a"."work_date" >= $2 AND "a"."work_date" <= $3 AND "a"."driver_id" = $4 AND "a"."status" = $5 AND EXISTS (SELECT 1 FROM users_matching($6) m WHERE m.id = "a"."driver_id") ORDER BY "a"."work_date" DESC, "a"."id" DESC LIMIT 20 OFFSET 0;
SELECT count(*)::int AS "n" FROM "attendances" "a" WHERE "a"."company_id" = $1 AND "a"."work_date" >= $2 AND "a"."work_date" <= $3 AND "a"."driver_id" = $4 AND "a"."status" = $5 AND EXISTS (SELECT 1 FROM users_matching($6) m WHERE m.id = "a"."driver_id");

-- AttendanceRepository.update
UPDATE "attendances" SET "status" = $1, "updated_at" = CURRENT_TIMESTAMP WHERE ("company_id" = $2 AND "id" = $3);

-- AttendanceRepository.withPausesQuery
-- (no statement)
