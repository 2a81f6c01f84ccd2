-- CustomerAddressRepository: statement snapshots (test/database/sql-snapshots.spec.ts; UPDATE_SQL_SNAPSHOTS=1 rewrites)

-- CustomerAddressRepository.assertReachable
SELECT "ref"."id" AS "id" FROM "customer_addresses" "ref" WHERE ( "ref"."company_id" = $1 AND "ref"."id" IN ($2) ) AND ( "ref"."deleted_at" IS NULL ) FOR SHARE;

-- CustomerAddressRepository.clearDefault
UPDATE customer_addresses SET is_default = false, updated_at = now() WHERE customer_id = $1 AND company_id = $2 AND is_default AND deleted_at IS NULL;

-- CustomerAddressRepository.find
SELECT "CustomerAddress"."id" AS "CustomerAddress_id", "CustomerAddress"."created_at" AS "CustomerAddress_created_at", "CustomerAddress"."updated_at" AS "CustomerAddress_updated_at", "CustomerAddress"."company_id" AS "CustomerAddress_company_id", "CustomerAddress"."customer_id" AS "CustomerAddress_customer_id", "CustomerAddress"."label" AS "CustomerAddress_label", "CustomerAddress"."line1" AS "CustomerAddress_line1", "CustomerAddress"."line2" AS "CustomerAddress_line2", "CustomerAddress"."city" AS "CustomerAddress_city", "CustomerAddress"."region" AS "CustomerAddress_region", "CustomerAddress"."postal_code" AS "CustomerAddress_postal_code", "CustomerAddress"."country" AS "CustomerAddress_country", "CustomerAddress"."latitude" AS "CustomerAddress_latitude", "CustomerAddress"."longitude" AS "CustomerAddress_longitude", "CustomerAddress"."instructions" AS "CustomerAddress_instructions", "CustomerAddress"."is_default" AS "CustomerAddress_is_default", "CustomerAddress"."deleted_at" AS "CustomerAddress_deleted_at" FROM "customer_addresses" "CustomerAddress" WHERE ( (("CustomerAddress"."company_id" = $1) AND ("CustomerAddress"."id" = $2)) ) AND ( "CustomerAddress"."deleted_at" IS NULL ) LIMIT 1;

-- CustomerAddressRepository.insert
INSERT INTO "customer_addresses"("id", "created_at", "updated_at", "company_id", "customer_id", "label", "line1", "line2", "city", "region", "postal_code", "country", "latitude", "longitude", "instructions", "is_default", "deleted_at") VALUES (DEFAULT, DEFAULT, DEFAULT, $1, $2, $3, $4, DEFAULT, $5, DEFAULT, DEFAULT, DEFAULT, $6, $7, DEFAULT, DEFAULT, DEFAULT) RETURNING "id", "created_at", "updated_at", "is_default", "deleted_at";

-- CustomerAddressRepository.latest
SELECT "CustomerAddress"."id" AS "CustomerAddress_id", "CustomerAddress"."created_at" AS "CustomerAddress_created_at", "CustomerAddress"."updated_at" AS "CustomerAddress_updated_at", "CustomerAddress"."company_id" AS "CustomerAddress_company_id", "CustomerAddress"."customer_id" AS "CustomerAddress_customer_id", "CustomerAddress"."label" AS "CustomerAddress_label", "CustomerAddress"."line1" AS "CustomerAddress_line1", "CustomerAddress"."line2" AS "CustomerAddress_line2", "CustomerAddress"."city" AS "CustomerAddress_city", "CustomerAddress"."region" AS "CustomerAddress_region", "CustomerAddress"."postal_code" AS "CustomerAddress_postal_code", "CustomerAddress"."country" AS "CustomerAddress_country", "CustomerAddress"."latitude" AS "CustomerAddress_latitude", "CustomerAddress"."longitude" AS "CustomerAddress_longitude", "CustomerAddress"."instructions" AS "CustomerAddress_instructions", "CustomerAddress"."is_default" AS "CustomerAddress_is_default", "CustomerAddress"."deleted_at" AS "CustomerAddress_deleted_at" FROM "customer_addresses" "CustomerAddress" WHERE ( (("CustomerAddress"."company_id" = $1) AND ("CustomerAddress"."customer_id" = $2) AND ("CustomerAddress"."deleted_at" IS NULL)) ) AND ( "CustomerAddress"."deleted_at" IS NULL ) ORDER BY "CustomerAddress"."created_at" DESC, "CustomerAddress"."id" ASC LIMIT 1;

-- CustomerAddressRepository.liveCount
SELECT count(*)::int AS count FROM customer_addresses WHERE customer_id = $1 AND company_id = $2 AND deleted_at IS NULL;

-- CustomerAddressRepository.makeDefault
UPDATE "customer_addresses" SET "is_default" = $1, "updated_at" = CURRENT_TIMESTAMP WHERE ("company_id" = $2 AND "id" = $3);

-- CustomerAddressRepository.page
SELECT "a"."id" AS "a_id", "a"."created_at" AS "a_created_at", "a"."updated_at" AS "a_updated_at", "a"."company_id" AS "a_company_id", "a"."customer_id" AS "a_customer_id", "a"."label" AS "a_label", "a"."line1" AS "a_line1", "a"."line2" AS "a_line2", "a"."city" AS "a_city", "a"."region" AS "a_region", "a"."postal_code" AS "a_postal_code", "a"."country" AS "a_country", "a"."latitude" AS "a_latitude", "a"."longitude" AS "a_longitude", "a"."instructions" AS "a_instructions", "a"."is_default" AS "a_is_default", "a"."deleted_at" AS "a_deleted_at" FROM "customer_addresses" "a" WHERE ( "a"."company_id" = $1 ) AND ( "a"."deleted_at" IS NULL ) ORDER BY "a"."created_at" DESC, "a"."id" DESC LIMIT 20 OFFSET 0;

-- CustomerAddressRepository.positions
SELECT "a"."id" AS id, "a"."latitude" AS latitude, "a"."longitude" AS longitude FROM "customer_addresses" "a" WHERE ( "a"."company_id" = $1 AND "a"."id" IN ($2, $3) ) AND ( "a"."deleted_at" IS NULL );

-- CustomerAddressRepository.softDelete
UPDATE "customer_addresses" SET "deleted_at" = $1, "is_default" = $2, "updated_at" = CURRENT_TIMESTAMP WHERE ("company_id" = $3 AND "id" = $4);

-- CustomerAddressRepository.withCustomer
SELECT "a"."id" AS "a_id", "a"."created_at" AS "a_created_at", "a"."updated_at" AS "a_updated_at", "a"."company_id" AS "a_company_id", "a"."customer_id" AS "a_customer_id", "a"."label" AS "a_label", "a"."line1" AS "a_line1", "a"."line2" AS "a_line2", "a"."city" AS "a_city", "a"."region" AS "a_region", "a"."postal_code" AS "a_postal_code", "a"."country" AS "a_country", "a"."latitude" AS "a_latitude", "a"."longitude" AS "a_longitude", "a"."instructions" AS "a_instructions", "a"."is_default" AS "a_is_default", "a"."deleted_at" AS "a_deleted_at", "c"."id" AS "c_id", "c"."company_id" AS "c_company_id", "c"."notes" AS "c_notes", "c"."created_at" AS "c_created_at", "c"."updated_at" AS "c_updated_at", "c"."billing_name" AS "c_billing_name", "c"."billing_email" AS "c_billing_email", "c"."tax_exempt" AS "c_tax_exempt", "c"."pricing_profile_id" AS "c_pricing_profile_id", "c"."demerit_points" AS "c_demerit_points", "c"."demerit_blocked" AS "c_demerit_blocked" FROM "customer_addresses" "a" LEFT JOIN "customers" "c" ON "c"."id" = "a"."customer_id" WHERE ( "a"."company_id" = $1 AND "a"."id" = $2 ) AND ( "a"."deleted_at" IS NULL );
