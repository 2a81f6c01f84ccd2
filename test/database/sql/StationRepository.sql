-- StationRepository: statement snapshots (test/database/sql-snapshots.spec.ts; UPDATE_SQL_SNAPSHOTS=1 rewrites)

-- StationRepository.accepts
SELECT 1 FROM station_waste_types WHERE station_id = $1 AND waste_type_id = $2 AND company_id = $3 LIMIT 1;

-- StationRepository.anyLiveAccepts
SELECT 1 FROM station_waste_types sw JOIN stations st ON st.id = sw.station_id AND st.deleted_at IS NULL WHERE sw.waste_type_id = $1 LIMIT 1;

-- StationRepository.filter: skipped (a part of page(): adds its filters)

-- StationRepository.forDay
SELECT "s"."id" AS id, "s"."name" AS name, "s"."latitude" AS latitude, "s"."longitude" AS longitude, "s"."opening_hours" AS opening_hours, (SELECT h.name FROM station_holidays h WHERE h.station_id = "s"."id" AND h.date = CAST($1 AS date) LIMIT 1) AS "holiday", (SELECT jsonb_build_object('open', e.open_time, 'close', e.close_time, 'note', e.note) FROM station_opening_exceptions e WHERE e.station_id = "s"."id" AND e.date = CAST($1 AS date)) AS "exception", (SELECT coalesce(string_agg(sw.waste_type_id::text, ',' ORDER BY sw.waste_type_id), '') FROM station_waste_types sw WHERE sw.station_id = "s"."id") AS "waste_type_ids" FROM "stations" "s" WHERE ( "s"."company_id" = $2 AND "s"."active" ) AND ( "s"."deleted_at" IS NULL ) ORDER BY "s"."name" ASC, "s"."id" ASC;

-- StationRepository.replaceWasteTypes
DELETE FROM station_waste_types WHERE station_id = $1 AND company_id = $2;
INSERT INTO station_waste_types (station_id, waste_type_id, company_id) SELECT $1, unnest($2::uuid[]), $3;

-- StationRepository.wasteTypeLinks
SELECT station_id, waste_type_id FROM station_waste_types WHERE station_id = ANY($1::uuid[]) AND company_id = $2;
