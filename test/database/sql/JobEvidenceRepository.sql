-- JobEvidenceRepository: statement snapshots (test/database/sql-snapshots.spec.ts; UPDATE_SQL_SNAPSHOTS=1 rewrites)

-- JobEvidenceRepository.get
SELECT "JobEvidence"."id" AS "JobEvidence_id", "JobEvidence"."created_at" AS "JobEvidence_created_at", "JobEvidence"."updated_at" AS "JobEvidence_updated_at", "JobEvidence"."company_id" AS "JobEvidence_company_id", "JobEvidence"."job_id" AS "JobEvidence_job_id", "JobEvidence"."driver_id" AS "JobEvidence_driver_id", "JobEvidence"."kind" AS "JobEvidence_kind", "JobEvidence"."media_id" AS "JobEvidence_media_id", "JobEvidence"."url" AS "JobEvidence_url", "JobEvidence"."code" AS "JobEvidence_code", "JobEvidence"."note" AS "JobEvidence_note", "JobEvidence"."lat" AS "JobEvidence_lat", "JobEvidence"."lng" AS "JobEvidence_lng" FROM "job_evidence" "JobEvidence" WHERE (("JobEvidence"."id" = $1) AND ("JobEvidence"."company_id" = $2)) LIMIT 1;

-- JobEvidenceRepository.hasPhoto
SELECT 1 AS "row_exists" FROM (SELECT 1 AS dummy_column) "dummy_table" WHERE EXISTS (SELECT 1 FROM "job_evidence" "JobEvidence" WHERE (("JobEvidence"."job_id" = $1) AND ("JobEvidence"."company_id" = $2) AND ("JobEvidence"."kind" = $3))) LIMIT 1;

-- JobEvidenceRepository.insert
INSERT INTO "job_evidence"("id", "created_at", "updated_at", "company_id", "job_id", "driver_id", "kind", "media_id", "url", "code", "note", "lat", "lng") VALUES (DEFAULT, DEFAULT, DEFAULT, $1, $2, $3, $4, $5, $6, $7, $8, $9, $10) RETURNING "id", "created_at", "updated_at";

-- JobEvidenceRepository.mediaUsedOutside
SELECT 1 FROM job_evidence WHERE media_id = $1 AND company_id <> $2 LIMIT 1;

-- JobEvidenceRepository.ofJob
SELECT "JobEvidence"."id" AS "JobEvidence_id", "JobEvidence"."created_at" AS "JobEvidence_created_at", "JobEvidence"."updated_at" AS "JobEvidence_updated_at", "JobEvidence"."company_id" AS "JobEvidence_company_id", "JobEvidence"."job_id" AS "JobEvidence_job_id", "JobEvidence"."driver_id" AS "JobEvidence_driver_id", "JobEvidence"."kind" AS "JobEvidence_kind", "JobEvidence"."media_id" AS "JobEvidence_media_id", "JobEvidence"."url" AS "JobEvidence_url", "JobEvidence"."code" AS "JobEvidence_code", "JobEvidence"."note" AS "JobEvidence_note", "JobEvidence"."lat" AS "JobEvidence_lat", "JobEvidence"."lng" AS "JobEvidence_lng" FROM "job_evidence" "JobEvidence" WHERE (("JobEvidence"."job_id" = $1) AND ("JobEvidence"."company_id" = $2)) ORDER BY "JobEvidence"."created_at" ASC, "JobEvidence"."id" ASC;

-- JobEvidenceRepository.saveTicket
SELECT "StationTicket"."id" AS "StationTicket_id", "StationTicket"."created_at" AS "StationTicket_created_at", "StationTicket"."updated_at" AS "StationTicket_updated_at", "StationTicket"."company_id" AS "StationTicket_company_id", "StationTicket"."job_id" AS "StationTicket_job_id", "StationTicket"."station_id" AS "StationTicket_station_id", "StationTicket"."driver_id" AS "StationTicket_driver_id", "StationTicket"."ticket_number" AS "StationTicket_ticket_number", "StationTicket"."gross_kg" AS "StationTicket_gross_kg", "StationTicket"."tare_kg" AS "StationTicket_tare_kg", "StationTicket"."net_kg" AS "StationTicket_net_kg", "StationTicket"."weighed_at" AS "StationTicket_weighed_at" FROM "station_tickets" "StationTicket" WHERE (("StationTicket"."job_id" = $1)) LIMIT 1;
INSERT INTO "station_tickets"("id", "created_at", "updated_at", "company_id", "job_id", "station_id", "driver_id", "ticket_number", "gross_kg", "tare_kg", "net_kg", "weighed_at") VALUES (DEFAULT, DEFAULT, DEFAULT, $1, $2, $3, $4, $5, $6, $7, $8, $9) RETURNING "id", "created_at", "updated_at";

-- JobEvidenceRepository.ticketOf
SELECT "StationTicket"."id" AS "StationTicket_id", "StationTicket"."created_at" AS "StationTicket_created_at", "StationTicket"."updated_at" AS "StationTicket_updated_at", "StationTicket"."company_id" AS "StationTicket_company_id", "StationTicket"."job_id" AS "StationTicket_job_id", "StationTicket"."station_id" AS "StationTicket_station_id", "StationTicket"."driver_id" AS "StationTicket_driver_id", "StationTicket"."ticket_number" AS "StationTicket_ticket_number", "StationTicket"."gross_kg" AS "StationTicket_gross_kg", "StationTicket"."tare_kg" AS "StationTicket_tare_kg", "StationTicket"."net_kg" AS "StationTicket_net_kg", "StationTicket"."weighed_at" AS "StationTicket_weighed_at" FROM "station_tickets" "StationTicket" WHERE (("StationTicket"."job_id" = $1) AND ("StationTicket"."company_id" = $2)) LIMIT 1;
