-- LeaveRequestRepository: statement snapshots (test/database/sql-snapshots.spec.ts; UPDATE_SQL_SNAPSHOTS=1 rewrites)

-- LeaveRequestRepository.attachedOutside
SELECT 1 AS one FROM leave_requests WHERE attachment_media_id = $1 AND company_id <> $2 LIMIT 1;

-- LeaveRequestRepository.dates
SELECT "LeaveRequestDate"."id" AS "LeaveRequestDate_id", "LeaveRequestDate"."created_at" AS "LeaveRequestDate_created_at", "LeaveRequestDate"."updated_at" AS "LeaveRequestDate_updated_at", "LeaveRequestDate"."company_id" AS "LeaveRequestDate_company_id", "LeaveRequestDate"."leave_request_id" AS "LeaveRequestDate_leave_request_id", "LeaveRequestDate"."driver_id" AS "LeaveRequestDate_driver_id", "LeaveRequestDate"."date" AS "LeaveRequestDate_date", "LeaveRequestDate"."status" AS "LeaveRequestDate_status", "LeaveRequestDate"."note" AS "LeaveRequestDate_note", "LeaveRequestDate"."decided_at" AS "LeaveRequestDate_decided_at", "LeaveRequestDate"."decided_by" AS "LeaveRequestDate_decided_by", "LeaveRequestDate"."leave_id" AS "LeaveRequestDate_leave_id" FROM "leave_request_dates" "LeaveRequestDate" WHERE (("LeaveRequestDate"."company_id" = $1) AND ("LeaveRequestDate"."leave_request_id" = $2)) ORDER BY "LeaveRequestDate"."date" ASC;

-- LeaveRequestRepository.deleteDates
DELETE FROM "leave_request_dates" WHERE ("company_id" = $1 AND "id" IN ($2, $3));

-- LeaveRequestRepository.find
SELECT "LeaveRequest"."id" AS "LeaveRequest_id", "LeaveRequest"."created_at" AS "LeaveRequest_created_at", "LeaveRequest"."updated_at" AS "LeaveRequest_updated_at", "LeaveRequest"."company_id" AS "LeaveRequest_company_id", "LeaveRequest"."driver_id" AS "LeaveRequest_driver_id", "LeaveRequest"."type" AS "LeaveRequest_type", "LeaveRequest"."status" AS "LeaveRequest_status", "LeaveRequest"."reason" AS "LeaveRequest_reason", "LeaveRequest"."attachment_media_id" AS "LeaveRequest_attachment_media_id", "LeaveRequest"."first_date" AS "LeaveRequest_first_date", "LeaveRequest"."last_date" AS "LeaveRequest_last_date", "LeaveRequest"."cancelled_at" AS "LeaveRequest_cancelled_at" FROM "leave_requests" "LeaveRequest" WHERE (("LeaveRequest"."company_id" = $1) AND ("LeaveRequest"."id" = $2)) LIMIT 1;

-- LeaveRequestRepository.findWithDates
SELECT "r"."id" AS "r_id", "r"."created_at" AS "r_created_at", "r"."updated_at" AS "r_updated_at", "r"."company_id" AS "r_company_id", "r"."driver_id" AS "r_driver_id", "r"."type" AS "r_type", "r"."status" AS "r_status", "r"."reason" AS "r_reason", "r"."attachment_media_id" AS "r_attachment_media_id", "r"."first_date" AS "r_first_date", "r"."last_date" AS "r_last_date", "r"."cancelled_at" AS "r_cancelled_at", (SELECT coalesce(json_agg(json_build_object('date', to_char(d.date, 'YYYY-MM-DD'), 'status', d.status, 'note', d.note, 'decided_at', d.decided_at, 'leave_id', d.leave_id) ORDER BY d.date), '[]'::json) FROM leave_request_dates d WHERE d.leave_request_id = "r"."id") AS "dates" FROM "leave_requests" "r" WHERE "r"."company_id" = $1 AND "r"."id" = $2;

-- LeaveRequestRepository.insert
INSERT INTO "leave_requests"("id", "created_at", "updated_at", "company_id", "driver_id", "type", "status", "reason", "attachment_media_id", "first_date", "last_date", "cancelled_at") VALUES (DEFAULT, DEFAULT, DEFAULT, $1, $2, $3, $4, $5, $6, $7, $8, DEFAULT) RETURNING "id", "created_at", "updated_at", "status";

-- LeaveRequestRepository.insertDates
INSERT INTO "leave_request_dates"("id", "created_at", "updated_at", "company_id", "leave_request_id", "driver_id", "date", "status", "note", "decided_at", "decided_by", "leave_id") VALUES (DEFAULT, DEFAULT, DEFAULT, $1, $2, $3, $4, $5, DEFAULT, DEFAULT, DEFAULT, DEFAULT) RETURNING "id", "created_at", "updated_at", "status";

-- LeaveRequestRepository.moveDatesToLeave
UPDATE "leave_request_dates" SET "leave_id" = $1, "updated_at" = CURRENT_TIMESTAMP WHERE ("company_id" = $2 AND "leave_id" = $3);

-- LeaveRequestRepository.page (no filter)
SELECT "r"."id" AS "r_id", "r"."created_at" AS "r_created_at", "r"."updated_at" AS "r_updated_at", "r"."company_id" AS "r_company_id", "r"."driver_id" AS "r_driver_id", "r"."type" AS "r_type", "r"."status" AS "r_status", "r"."reason" AS "r_reason", "r"."attachment_media_id" AS "r_attachment_media_id", "r"."first_date" AS "r_first_date", "r"."last_date" AS "r_last_date", "r"."cancelled_at" AS "r_cancelled_at", (SELECT coalesce(json_agg(json_build_object('date', to_char(d.date, 'YYYY-MM-DD'), 'status', d.status, 'note', d.note, 'decided_at', d.decided_at, 'leave_id', d.leave_id) ORDER BY d.date), '[]'::json) FROM leave_request_dates d WHERE d.leave_request_id = "r"."id") AS "dates" FROM "leave_requests" "r" WHERE "r"."company_id" = $1 ORDER BY "r"."created_at" DESC, "r"."id" DESC LIMIT 20 OFFSET 0;
SELECT count(*)::int AS "n" FROM "leave_requests" "r" WHERE "r"."company_id" = $1;

-- LeaveRequestRepository.page (with filters)
SELECT "r"."id" AS "r_id", "r"."created_at" AS "r_created_at", "r"."updated_at" AS "r_updated_at", "r"."company_id" AS "r_company_id", "r"."driver_id" AS "r_driver_id", "r"."type" AS "r_type", "r"."status" AS "r_status", "r"."reason" AS "r_reason", "r"."attachment_media_id" AS "r_attachment_media_id", "r"."first_date" AS "r_first_date", "r"."last_date" AS "r_last_date", "r"."cancelled_at" AS "r_cancelled_at", (SELECT coalesce(json_agg(json_build_object('date', to_char(d.date, 'YYYY-MM-DD'), 'status', d.status, 'note', d.note, 'decided_at', d.decided_at, 'leave_id', d.leave_id) ORDER BY d.date), '[]'::json) FROM leave_request_dates d WHERE d.leave_request_id = "r"."id") AS "dates" FROM "leave_requests" "r" WHERE "r"."company_id" = $1 AND "r"."status" = $2 AND "r"."type" = $3 AND "r"."last_date" >= $4 AND "r"."first_date" <= $5 AND "r"."driver_id" = $6 AND EXISTS (SELECT 1 FROM users_matching($7) m WHERE m.id = "r"."driver_id") ORDER BY "r"."created_at" DESC, "r"."id" DESC LIMIT 20 OFFSET 0;
SELECT count(*)::int AS "n" FROM "leave_requests" "r" WHERE "r"."company_id" = $1 AND "r"."status" = $2 AND "r"."type" = $3 AND "r"."last_date" >= $4 AND "r"."first_date" <= $5 AND "r"."driver_id" = $6 AND EXISTS (SELECT 1 FROM users_matching($7) m WHERE m.id = "r"."driver_id");

-- LeaveRequestRepository.takenDates
SELECT to_char(x.date, 'YYYY-MM-DD') AS date, EXISTS (SELECT 1 FROM leaves l WHERE l.driver_id = $1 AND l.company_id = $4 AND l.status IN ('approved', 'revoked') AND l.start_date <= x.date AND l.end_date >= x.date) AS on_leave FROM unnest($2::date[]) AS x(date) WHERE EXISTS (SELECT 1 FROM leaves l WHERE l.driver_id = $1 AND l.company_id = $4 AND l.status IN ('approved', 'revoked') AND l.start_date <= x.date AND l.end_date >= x.date) OR EXISTS (SELECT 1 FROM leave_request_dates d JOIN leave_requests r ON r.id = d.leave_request_id WHERE d.driver_id = $1 AND d.company_id = $4 AND d.date = x.date AND d.status IN ('pending', 'in_review') AND r.status <> 'cancelled' AND r.id IS DISTINCT FROM $3::uuid) ORDER BY x.date;

-- LeaveRequestRepository.update
UPDATE "leave_requests" SET "status" = $1, "updated_at" = CURRENT_TIMESTAMP WHERE ("company_id" = $2 AND "id" = $3);

-- LeaveRequestRepository.updateDates
UPDATE "leave_request_dates" SET "status" = $1, "updated_at" = CURRENT_TIMESTAMP WHERE ("company_id" = $2 AND "leave_request_id" = $3 AND "date" IN ($4));

-- LeaveRequestRepository.withDatesQuery
-- (no statement)
