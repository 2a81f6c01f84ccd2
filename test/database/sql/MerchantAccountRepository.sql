-- MerchantAccountRepository: statement snapshots (test/database/sql-snapshots.spec.ts; UPDATE_SQL_SNAPSHOTS=1 rewrites)

-- MerchantAccountRepository.cardView
SELECT "MerchantAccount"."id" AS "MerchantAccount_id", "MerchantAccount"."state" AS "MerchantAccount_state", "MerchantAccount"."provider" AS "MerchantAccount_provider", "MerchantAccount"."provider_reference" AS "MerchantAccount_provider_reference" FROM "merchant_accounts" "MerchantAccount" WHERE (("MerchantAccount"."company_id" = $1)) LIMIT 1;

-- MerchantAccountRepository.feeView
SELECT "MerchantAccount"."id" AS "MerchantAccount_id", "MerchantAccount"."state" AS "MerchantAccount_state", "MerchantAccount"."payout_schedule" AS "MerchantAccount_payout_schedule" FROM "merchant_accounts" "MerchantAccount" WHERE (("MerchantAccount"."company_id" = $1)) LIMIT 1;

-- MerchantAccountRepository.find
SELECT "MerchantAccount"."id" AS "MerchantAccount_id", "MerchantAccount"."created_at" AS "MerchantAccount_created_at", "MerchantAccount"."updated_at" AS "MerchantAccount_updated_at", "MerchantAccount"."company_id" AS "MerchantAccount_company_id", "MerchantAccount"."provider" AS "MerchantAccount_provider", "MerchantAccount"."provider_reference" AS "MerchantAccount_provider_reference", "MerchantAccount"."state" AS "MerchantAccount_state", "MerchantAccount"."onboarding_url" AS "MerchantAccount_onboarding_url", "MerchantAccount"."payout_schedule" AS "MerchantAccount_payout_schedule", "MerchantAccount"."started_at" AS "MerchantAccount_started_at", "MerchantAccount"."approved_at" AS "MerchantAccount_approved_at", "MerchantAccount"."rejected_at" AS "MerchantAccount_rejected_at", "MerchantAccount"."cancelled_at" AS "MerchantAccount_cancelled_at", "MerchantAccount"."cancel_reason" AS "MerchantAccount_cancel_reason", "MerchantAccount"."last_checked_at" AS "MerchantAccount_last_checked_at" FROM "merchant_accounts" "MerchantAccount" WHERE (("MerchantAccount"."company_id" = $1)) LIMIT 1;

-- MerchantAccountRepository.insertAcceptance
INSERT INTO "merchant_terms_acceptances"("id", "created_at", "updated_at", "company_id", "version", "accepted_by", "accepted_at", "ip", "user_agent", "withdrawn_at", "withdrawn_by") VALUES (DEFAULT, DEFAULT, DEFAULT, $1, $2, $3, $4, $5, $6, $7, $8) RETURNING "id", "created_at", "updated_at";

-- MerchantAccountRepository.liveAcceptance
SELECT "MerchantTermsAcceptance"."id" AS "MerchantTermsAcceptance_id", "MerchantTermsAcceptance"."created_at" AS "MerchantTermsAcceptance_created_at", "MerchantTermsAcceptance"."updated_at" AS "MerchantTermsAcceptance_updated_at", "MerchantTermsAcceptance"."company_id" AS "MerchantTermsAcceptance_company_id", "MerchantTermsAcceptance"."version" AS "MerchantTermsAcceptance_version", "MerchantTermsAcceptance"."accepted_by" AS "MerchantTermsAcceptance_accepted_by", "MerchantTermsAcceptance"."accepted_at" AS "MerchantTermsAcceptance_accepted_at", "MerchantTermsAcceptance"."ip" AS "MerchantTermsAcceptance_ip", "MerchantTermsAcceptance"."user_agent" AS "MerchantTermsAcceptance_user_agent", "MerchantTermsAcceptance"."withdrawn_at" AS "MerchantTermsAcceptance_withdrawn_at", "MerchantTermsAcceptance"."withdrawn_by" AS "MerchantTermsAcceptance_withdrawn_by" FROM "merchant_terms_acceptances" "MerchantTermsAcceptance" WHERE (("MerchantTermsAcceptance"."company_id" = $1) AND ("MerchantTermsAcceptance"."withdrawn_at" IS NULL)) LIMIT 1;

-- MerchantAccountRepository.lock
INSERT INTO merchant_accounts (company_id) VALUES ($1) ON CONFLICT (company_id) DO NOTHING;

-- MerchantAccountRepository.lockByReference
SELECT "MerchantAccount"."id" AS "MerchantAccount_id", "MerchantAccount"."created_at" AS "MerchantAccount_created_at", "MerchantAccount"."updated_at" AS "MerchantAccount_updated_at", "MerchantAccount"."company_id" AS "MerchantAccount_company_id", "MerchantAccount"."provider" AS "MerchantAccount_provider", "MerchantAccount"."provider_reference" AS "MerchantAccount_provider_reference", "MerchantAccount"."state" AS "MerchantAccount_state", "MerchantAccount"."onboarding_url" AS "MerchantAccount_onboarding_url", "MerchantAccount"."payout_schedule" AS "MerchantAccount_payout_schedule", "MerchantAccount"."started_at" AS "MerchantAccount_started_at", "MerchantAccount"."approved_at" AS "MerchantAccount_approved_at", "MerchantAccount"."rejected_at" AS "MerchantAccount_rejected_at", "MerchantAccount"."cancelled_at" AS "MerchantAccount_cancelled_at", "MerchantAccount"."cancel_reason" AS "MerchantAccount_cancel_reason", "MerchantAccount"."last_checked_at" AS "MerchantAccount_last_checked_at" FROM "merchant_accounts" "MerchantAccount" WHERE (("MerchantAccount"."provider_reference" = $1)) LIMIT 1 FOR UPDATE;

-- MerchantAccountRepository.recordEvents: skipped (common's outbox insert (recordEvents), snapshotted with common)

-- MerchantAccountRepository.save
SELECT "MerchantAccount"."id" AS "MerchantAccount_id", "MerchantAccount"."created_at" AS "MerchantAccount_created_at", "MerchantAccount"."updated_at" AS "MerchantAccount_updated_at", "MerchantAccount"."company_id" AS "MerchantAccount_company_id", "MerchantAccount"."provider" AS "MerchantAccount_provider", "MerchantAccount"."provider_reference" AS "MerchantAccount_provider_reference", "MerchantAccount"."state" AS "MerchantAccount_state", "MerchantAccount"."onboarding_url" AS "MerchantAccount_onboarding_url", "MerchantAccount"."payout_schedule" AS "MerchantAccount_payout_schedule", "MerchantAccount"."started_at" AS "MerchantAccount_started_at", "MerchantAccount"."approved_at" AS "MerchantAccount_approved_at", "MerchantAccount"."rejected_at" AS "MerchantAccount_rejected_at", "MerchantAccount"."cancelled_at" AS "MerchantAccount_cancelled_at", "MerchantAccount"."cancel_reason" AS "MerchantAccount_cancel_reason", "MerchantAccount"."last_checked_at" AS "MerchantAccount_last_checked_at" FROM "merchant_accounts" "MerchantAccount" WHERE "MerchantAccount"."id" = $1;
INSERT INTO "merchant_accounts"("id", "created_at", "updated_at", "company_id", "provider", "provider_reference", "state", "onboarding_url", "payout_schedule", "started_at", "approved_at", "rejected_at", "cancelled_at", "cancel_reason", "last_checked_at") VALUES ($1, DEFAULT, DEFAULT, $2, DEFAULT, DEFAULT, $3, DEFAULT, DEFAULT, DEFAULT, DEFAULT, DEFAULT, DEFAULT, DEFAULT, DEFAULT) RETURNING "id", "created_at", "updated_at", "state", "payout_schedule";

-- MerchantAccountRepository.update
UPDATE "merchant_accounts" SET "cancel_reason" = $1, "updated_at" = CURRENT_TIMESTAMP WHERE ("id" = $2 AND "company_id" = $3);

-- MerchantAccountRepository.withdrawAcceptance
UPDATE "merchant_terms_acceptances" SET "withdrawn_at" = $1, "withdrawn_by" = $2, "updated_at" = CURRENT_TIMESTAMP WHERE ("id" = $3 AND "company_id" = $4);
