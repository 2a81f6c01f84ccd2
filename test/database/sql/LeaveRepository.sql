-- LeaveRepository: statement snapshots (test/database/sql-snapshots.spec.ts; UPDATE_SQL_SNAPSHOTS=1 rewrites)

-- LeaveRepository.delete
DELETE FROM "leaves" WHERE ("company_id" = $1 AND "id" = $2);

-- LeaveRepository.find
SELECT "Leave"."id" AS "Leave_id", "Leave"."created_at" AS "Leave_created_at", "Leave"."updated_at" AS "Leave_updated_at", "Leave"."company_id" AS "Leave_company_id", "Leave"."driver_id" AS "Leave_driver_id", "Leave"."leave_request_id" AS "Leave_leave_request_id", "Leave"."type" AS "Leave_type", "Leave"."status" AS "Leave_status", "Leave"."start_date" AS "Leave_start_date", "Leave"."end_date" AS "Leave_end_date", "Leave"."revoked_from" AS "Leave_revoked_from", "Leave"."revoked_to" AS "Leave_revoked_to", "Leave"."cancelled_at" AS "Leave_cancelled_at", "Leave"."revoked_at" AS "Leave_revoked_at", "Leave"."note" AS "Leave_note" FROM "leaves" "Leave" WHERE (("Leave"."company_id" = $1) AND ("Leave"."id" = $2)) LIMIT 1;

-- LeaveRepository.findReached
SELECT "l"."id" AS "l_id", "l"."created_at" AS "l_created_at", "l"."updated_at" AS "l_updated_at", "l"."company_id" AS "l_company_id", "l"."driver_id" AS "l_driver_id", "l"."leave_request_id" AS "l_leave_request_id", "l"."type" AS "l_type", "l"."status" AS "l_status", "l"."start_date" AS "l_start_date", "l"."end_date" AS "l_end_date", "l"."revoked_from" AS "l_revoked_from", "l"."revoked_to" AS "l_revoked_to", "l"."cancelled_at" AS "l_cancelled_at", "l"."revoked_at" AS "l_revoked_at", "l"."note" AS "l_note" FROM "leaves" "l" WHERE "l"."company_id" = $1 AND "l"."id" = $2;

-- LeaveRepository.insert
INSERT INTO "leaves"("id", "created_at", "updated_at", "company_id", "driver_id", "leave_request_id", "type", "status", "start_date", "end_date", "revoked_from", "revoked_to", "cancelled_at", "revoked_at", "note") VALUES (DEFAULT, DEFAULT, DEFAULT, $1, $2, $3, $4, $5, $6, $7, DEFAULT, DEFAULT, DEFAULT, DEFAULT, DEFAULT) RETURNING "id", "created_at", "updated_at", "status";

-- LeaveRepository.liveOfRequestLocked
SELECT "Leave"."id" AS "Leave_id", "Leave"."created_at" AS "Leave_created_at", "Leave"."updated_at" AS "Leave_updated_at", "Leave"."company_id" AS "Leave_company_id", "Leave"."driver_id" AS "Leave_driver_id", "Leave"."leave_request_id" AS "Leave_leave_request_id", "Leave"."type" AS "Leave_type", "Leave"."status" AS "Leave_status", "Leave"."start_date" AS "Leave_start_date", "Leave"."end_date" AS "Leave_end_date", "Leave"."revoked_from" AS "Leave_revoked_from", "Leave"."revoked_to" AS "Leave_revoked_to", "Leave"."cancelled_at" AS "Leave_cancelled_at", "Leave"."revoked_at" AS "Leave_revoked_at", "Leave"."note" AS "Leave_note" FROM "leaves" "Leave" WHERE (("Leave"."company_id" = $1) AND ("Leave"."leave_request_id" = $2) AND ("Leave"."status" = $3)) ORDER BY "Leave"."id" ASC FOR UPDATE;

-- LeaveRepository.onLeave
SELECT 1 AS "row_exists" FROM (SELECT 1 AS dummy_column) "dummy_table" WHERE EXISTS (SELECT 1 FROM "leaves" "l" WHERE "l"."driver_id" = $1 AND "l"."company_id" = $2 AND "l"."status" IN ('approved', 'revoked') AND "l"."start_date" <= $3 AND "l"."end_date" >= $3) LIMIT 1;

-- LeaveRepository.onLeaveAmong
SELECT DISTINCT "l"."driver_id" AS "driver_id" FROM "leaves" "l" WHERE "l"."driver_id" IN ($1, $2) AND "l"."company_id" = $3 AND "l"."status" IN ('approved', 'revoked') AND "l"."start_date" <= $4 AND "l"."end_date" >= $4;

-- LeaveRepository.page (no filter)
SELECT "l"."id" AS "l_id", "l"."created_at" AS "l_created_at", "l"."updated_at" AS "l_updated_at", "l"."company_id" AS "l_company_id", "l"."driver_id" AS "l_driver_id", "l"."leave_request_id" AS "l_leave_request_id", "l"."type" AS "l_type", "l"."status" AS "l_status", "l"."start_date" AS "l_start_date", "l"."end_date" AS "l_end_date", "l"."revoked_from" AS "l_revoked_from", "l"."revoked_to" AS "l_revoked_to", "l"."cancelled_at" AS "l_cancelled_at", "l"."revoked_at" AS "l_revoked_at", "l"."note" AS "l_note" FROM "leaves" "l" WHERE "l"."company_id" = $1 ORDER BY "l"."start_date" DESC, "l"."id" DESC LIMIT 20 OFFSET 0;
SELECT count(*)::int AS "n" FROM "leaves" "l" WHERE "l"."company_id" = $1;

-- LeaveRepository.page (with filters)
SELECT "l"."id" AS "l_id", "l"."created_at" AS "l_created_at", "l"."updated_at" AS "l_updated_at", "l"."company_id" AS "l_company_id", "l"."driver_id" AS "l_driver_id", "l"."leave_request_id" AS "l_leave_request_id", "l"."type" AS "l_type", "l"."status" AS "l_status", "l"."start_date" AS "l_start_date", "l"."end_date" AS "l_end_date", "l"."revoked_from" AS "l_revoked_from", "l"."revoked_to" AS "l_revoked_to", "l"."cancelled_at" AS "l_cancelled_at", "l"."revoked_at" AS "l_revoked_at", "l"."note" AS "l_note" FROM "leaves" "l" WHERE "l"."company_id" = $1 AND "l"."status" = $2 AND "l"."type" = $3 AND "l"."end_date" >= $4 AND "l"."start_date" <= $5 AND "l"."driver_id" = $6 AND "l"."leave_request_id" = $7 AND EXISTS (SELECT 1 FROM users_matching($8) m WHERE m.id = "l"."driver_id") ORDER BY "l"."start_date" DESC, "l"."id" DESC LIMIT 20 OFFSET 0;
SELECT count(*)::int AS "n" FROM "leaves" "l" WHERE "l"."company_id" = $1 AND "l"."status" = $2 AND "l"."type" = $3 AND "l"."end_date" >= $4 AND "l"."start_date" <= $5 AND "l"."driver_id" = $6 AND "l"."leave_request_id" = $7 AND EXISTS (SELECT 1 FROM users_matching($8) m WHERE m.id = "l"."driver_id");

-- LeaveRepository.update
UPDATE "leaves" SET "note" = $1, "updated_at" = CURRENT_TIMESTAMP WHERE ("company_id" = $2 AND "id" = $3);

-- LeaveRepository.yearCounts
SELECT t.type, (SELECT coalesce(sum(least(l.end_date, $4::date) - greatest(l.start_date, $3::date) + 1), 0)::int FROM leaves l WHERE l.driver_id = $2 AND l.company_id = $1 AND l.type = t.type AND l.status IN ('approved', 'revoked') AND l.start_date <= $4::date AND l.end_date >= $3::date) AS taken, (SELECT count(*)::int FROM leave_request_dates d JOIN leave_requests r ON r.id = d.leave_request_id WHERE d.driver_id = $2 AND r.company_id = $1 AND r.type = t.type AND r.status <> 'cancelled' AND d.status IN ('pending', 'in_review') AND d.date BETWEEN $3::date AND $4::date) AS pending FROM unnest($5::text[]) WITH ORDINALITY AS t(type, n) ORDER BY t.n;
