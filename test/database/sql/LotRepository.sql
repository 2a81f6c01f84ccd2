-- LotRepository: statement snapshots (test/database/sql-snapshots.spec.ts; UPDATE_SQL_SNAPSHOTS=1 rewrites)

-- LotRepository.forDay
SELECT "s"."id" AS id, "s"."name" AS name, "s"."latitude" AS latitude, "s"."longitude" AS longitude, "s"."opening_hours" AS opening_hours, (SELECT h.name FROM lot_holidays h WHERE h.lot_id = "s"."id" AND h.date = CAST($1 AS date) LIMIT 1) AS "holiday", (SELECT jsonb_build_object('open', e.open_time, 'close', e.close_time, 'note', e.note) FROM lot_opening_exceptions e WHERE e.lot_id = "s"."id" AND e.date = CAST($1 AS date)) AS "exception" FROM "lots" "s" WHERE ( "s"."company_id" = $2 AND "s"."active" ) AND ( "s"."deleted_at" IS NULL ) ORDER BY "s"."name" ASC, "s"."id" ASC;

-- LotRepository.servingRows (without a day)
SELECT "s"."id" AS id, "s"."latitude" AS latitude, "s"."longitude" AS longitude, "s"."opening_hours" AS opening_hours, NULL::text AS "holiday", NULL::jsonb AS "exception" FROM "lots" "s" WHERE ( "s"."company_id" = $1 AND "s"."active" ) AND ( "s"."deleted_at" IS NULL );

-- LotRepository.servingRows (on a day)
SELECT "s"."id" AS id, "s"."latitude" AS latitude, "s"."longitude" AS longitude, "s"."opening_hours" AS opening_hours, (SELECT h.name FROM lot_holidays h WHERE h.lot_id = "s"."id" AND h.date = CAST($1 AS date) LIMIT 1) AS "holiday", (SELECT jsonb_build_object('open', e.open_time, 'close', e.close_time, 'note', e.note) FROM lot_opening_exceptions e WHERE e.lot_id = "s"."id" AND e.date = CAST($1 AS date)) AS "exception" FROM "lots" "s" WHERE ( "s"."company_id" = $2 AND "s"."active" ) AND ( "s"."deleted_at" IS NULL );
