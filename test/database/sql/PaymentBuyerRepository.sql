-- PaymentBuyerRepository: statement snapshots (test/database/sql-snapshots.spec.ts; UPDATE_SQL_SNAPSHOTS=1 rewrites)

-- PaymentBuyerRepository.insertInstrument
INSERT INTO "payment_instruments"("id", "created_at", "updated_at", "company_id", "user_id", "buyer_id", "provider", "provider_ref", "brand", "last4", "exp_month", "exp_year") VALUES (DEFAULT, DEFAULT, DEFAULT, $1, $2, $3, $4, $5, $6, $7, $8, $9) RETURNING "id", "created_at", "updated_at";

-- PaymentBuyerRepository.insertOnce
INSERT INTO payment_buyers (company_id, user_id, provider, provider_ref, refund_to) VALUES ($1, $2, $3, $4, $5) ON CONFLICT (user_id) DO NOTHING;

-- PaymentBuyerRepository.instrumentOf
SELECT "PaymentInstrument"."id" AS "PaymentInstrument_id", "PaymentInstrument"."created_at" AS "PaymentInstrument_created_at", "PaymentInstrument"."updated_at" AS "PaymentInstrument_updated_at", "PaymentInstrument"."company_id" AS "PaymentInstrument_company_id", "PaymentInstrument"."user_id" AS "PaymentInstrument_user_id", "PaymentInstrument"."buyer_id" AS "PaymentInstrument_buyer_id", "PaymentInstrument"."provider" AS "PaymentInstrument_provider", "PaymentInstrument"."provider_ref" AS "PaymentInstrument_provider_ref", "PaymentInstrument"."brand" AS "PaymentInstrument_brand", "PaymentInstrument"."last4" AS "PaymentInstrument_last4", "PaymentInstrument"."exp_month" AS "PaymentInstrument_exp_month", "PaymentInstrument"."exp_year" AS "PaymentInstrument_exp_year" FROM "payment_instruments" "PaymentInstrument" WHERE (("PaymentInstrument"."id" = $1) AND ("PaymentInstrument"."user_id" = $2) AND ("PaymentInstrument"."company_id" = $3)) LIMIT 1;

-- PaymentBuyerRepository.instruments
SELECT "i"."id" AS "i_id", "i"."created_at" AS "i_created_at", "i"."updated_at" AS "i_updated_at", "i"."company_id" AS "i_company_id", "i"."user_id" AS "i_user_id", "i"."buyer_id" AS "i_buyer_id", "i"."provider" AS "i_provider", "i"."provider_ref" AS "i_provider_ref", "i"."brand" AS "i_brand", "i"."last4" AS "i_last4", "i"."exp_month" AS "i_exp_month", "i"."exp_year" AS "i_exp_year" FROM "payment_instruments" "i" WHERE "i"."user_id" = $1 AND "i"."company_id" = $2 ORDER BY "i"."created_at" DESC, "i"."id" DESC LIMIT 20 OFFSET 0;

-- PaymentBuyerRepository.ofUser
SELECT "PaymentBuyer"."id" AS "PaymentBuyer_id", "PaymentBuyer"."created_at" AS "PaymentBuyer_created_at", "PaymentBuyer"."updated_at" AS "PaymentBuyer_updated_at", "PaymentBuyer"."company_id" AS "PaymentBuyer_company_id", "PaymentBuyer"."user_id" AS "PaymentBuyer_user_id", "PaymentBuyer"."provider" AS "PaymentBuyer_provider", "PaymentBuyer"."provider_ref" AS "PaymentBuyer_provider_ref", "PaymentBuyer"."refund_to" AS "PaymentBuyer_refund_to" FROM "payment_buyers" "PaymentBuyer" WHERE (("PaymentBuyer"."user_id" = $1) AND ("PaymentBuyer"."company_id" = $2)) LIMIT 1;

-- PaymentBuyerRepository.setRefundTo
UPDATE "payment_buyers" SET "refund_to" = $1, "updated_at" = CURRENT_TIMESTAMP WHERE ("id" = $2 AND "company_id" = $3);
