-- JobIssueRepository: statement snapshots (test/database/sql-snapshots.spec.ts; UPDATE_SQL_SNAPSHOTS=1 rewrites)

-- JobIssueRepository.blocked
SELECT 1 AS "row_exists" FROM (SELECT 1 AS dummy_column) "dummy_table" WHERE EXISTS (SELECT 1 FROM "job_issues" "JobIssue" WHERE (("JobIssue"."job_id" IN ($1, $2)) AND ("JobIssue"."company_id" = $3) AND ("JobIssue"."status" = $4) AND ("JobIssue"."blocking" = $5))) LIMIT 1;

-- JobIssueRepository.findNamed
SELECT "i"."id" AS "i_id", "i"."created_at" AS "i_created_at", "i"."updated_at" AS "i_updated_at", "i"."company_id" AS "i_company_id", "i"."job_id" AS "i_job_id", "i"."driver_id" AS "i_driver_id", "i"."type" AS "i_type", "i"."blocking" AS "i_blocking", "i"."description" AS "i_description", "i"."status" AS "i_status", "i"."resolution_note" AS "i_resolution_note", "i"."resolved_at" AS "i_resolved_at", "i"."resolved_by" AS "i_resolved_by", users_name("i"."driver_id") AS "driver_name" FROM "job_issues" "i" WHERE "i"."company_id" = $1 AND "i"."id" = $2;

-- JobIssueRepository.insert
INSERT INTO "job_issues"("id", "created_at", "updated_at", "company_id", "job_id", "driver_id", "type", "blocking", "description", "status", "resolution_note", "resolved_at", "resolved_by") VALUES (DEFAULT, DEFAULT, DEFAULT, $1, $2, $3, $4, $5, $6, $7, DEFAULT, DEFAULT, DEFAULT) RETURNING "id", "created_at", "updated_at", "blocking", "status";

-- JobIssueRepository.lock
SELECT "JobIssue"."id" AS "JobIssue_id", "JobIssue"."created_at" AS "JobIssue_created_at", "JobIssue"."updated_at" AS "JobIssue_updated_at", "JobIssue"."company_id" AS "JobIssue_company_id", "JobIssue"."job_id" AS "JobIssue_job_id", "JobIssue"."driver_id" AS "JobIssue_driver_id", "JobIssue"."type" AS "JobIssue_type", "JobIssue"."blocking" AS "JobIssue_blocking", "JobIssue"."description" AS "JobIssue_description", "JobIssue"."status" AS "JobIssue_status", "JobIssue"."resolution_note" AS "JobIssue_resolution_note", "JobIssue"."resolved_at" AS "JobIssue_resolved_at", "JobIssue"."resolved_by" AS "JobIssue_resolved_by" FROM "job_issues" "JobIssue" WHERE (("JobIssue"."company_id" = $1) AND ("JobIssue"."id" = $2)) LIMIT 1 FOR UPDATE;

-- JobIssueRepository.ofJobs (all)
SELECT "i"."id" AS "i_id", "i"."created_at" AS "i_created_at", "i"."updated_at" AS "i_updated_at", "i"."company_id" AS "i_company_id", "i"."job_id" AS "i_job_id", "i"."driver_id" AS "i_driver_id", "i"."type" AS "i_type", "i"."blocking" AS "i_blocking", "i"."description" AS "i_description", "i"."status" AS "i_status", "i"."resolution_note" AS "i_resolution_note", "i"."resolved_at" AS "i_resolved_at", "i"."resolved_by" AS "i_resolved_by", users_name("i"."driver_id") AS "driver_name" FROM "job_issues" "i" WHERE "i"."company_id" = $1 AND "i"."job_id" IN ($2, $3) ORDER BY "i"."created_at" ASC, "i"."id" ASC;

-- JobIssueRepository.ofJobs (open)
SELECT "i"."id" AS "i_id", "i"."created_at" AS "i_created_at", "i"."updated_at" AS "i_updated_at", "i"."company_id" AS "i_company_id", "i"."job_id" AS "i_job_id", "i"."driver_id" AS "i_driver_id", "i"."type" AS "i_type", "i"."blocking" AS "i_blocking", "i"."description" AS "i_description", "i"."status" AS "i_status", "i"."resolution_note" AS "i_resolution_note", "i"."resolved_at" AS "i_resolved_at", "i"."resolved_by" AS "i_resolved_by", users_name("i"."driver_id") AS "driver_name" FROM "job_issues" "i" WHERE "i"."company_id" = $1 AND "i"."job_id" IN ($2) AND "i"."status" = 'open' ORDER BY "i"."created_at" ASC, "i"."id" ASC;

-- JobIssueRepository.page (no filter)
SELECT "i"."id" AS "i_id", "i"."created_at" AS "i_created_at", "i"."updated_at" AS "i_updated_at", "i"."company_id" AS "i_company_id", "i"."job_id" AS "i_job_id", "i"."driver_id" AS "i_driver_id", "i"."type" AS "i_type", "i"."blocking" AS "i_blocking", "i"."description" AS "i_description", "i"."status" AS "i_status", "i"."resolution_note" AS "i_resolution_note", "i"."resolved_at" AS "i_resolved_at", "i"."resolved_by" AS "i_resolved_by", users_name("i"."driver_id") AS "driver_name" FROM "job_issues" "i" WHERE "i"."company_id" = $1 ORDER BY "i"."created_at" DESC, "i"."id" DESC LIMIT 20 OFFSET 0;
SELECT COUNT(1) AS "cnt" FROM "job_issues" "i" WHERE "i"."company_id" = $1;

-- JobIssueRepository.page (with filters)
SELECT "i"."id" AS "i_id", "i"."created_at" AS "i_created_at", "i"."updated_at" AS "i_updated_at", "i"."company_id" AS "i_company_id", "i"."job_id" AS "i_job_id", "i"."driver_id" AS "i_driver_id", "i"."type" AS "i_type", "i"."blocking" AS "i_blocking", "i"."description" AS "i_description", "i"."status" AS "i_status", "i"."resolution_note" AS "i_resolution_note", "i"."resolved_at" AS "i_resolved_at", "i"."resolved_by" AS "i_resolved_by", users_name("i"."driver_id") AS "driver_name" FROM "job_issues" "i" WHERE "i"."company_id" = $1 AND "i"."status" = $2 AND "i"."blocking" = $3 AND "i"."driver_id" = $4 AND "i"."job_id" = $5 ORDER BY "i"."created_at" DESC, "i"."id" DESC LIMIT 20 OFFSET 0;
SELECT COUNT(1) AS "cnt" FROM "job_issues" "i" WHERE "i"."company_id" = $1 AND "i"."status" = $2 AND "i"."blocking" = $3 AND "i"."driver_id" = $4 AND "i"."job_id" = $5;

-- JobIssueRepository.update
UPDATE "job_issues" SET "status" = $1, "resolution_note" = $2, "resolved_at" = $3, "resolved_by" = $4, "updated_at" = CURRENT_TIMESTAMP WHERE ("id" = $5 AND "company_id" = $6);
