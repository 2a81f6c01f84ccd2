-- WalletRepository: statement snapshots (test/database/sql-snapshots.spec.ts; UPDATE_SQL_SNAPSHOTS=1 rewrites)

-- WalletRepository.companyTotals
SELECT count(*)::int AS n, coalesce(sum(balance), 0)::bigint::text AS total, min(currency) AS currency FROM wallets WHERE company_id = $1;

-- WalletRepository.credit
INSERT INTO wallets (company_id, customer_id, currency, balance) VALUES ($1, $2, $3, $4) ON CONFLICT (company_id, customer_id) DO UPDATE SET balance = wallets.balance + EXCLUDED.balance, updated_at = now() RETURNING id;

-- WalletRepository.debit
UPDATE wallets SET balance = balance - $2, updated_at = now() WHERE id = $1 AND company_id = $3;

-- WalletRepository.lock
SELECT "w"."id" AS "w_id", "w"."created_at" AS "w_created_at", "w"."updated_at" AS "w_updated_at", "w"."company_id" AS "w_company_id", "w"."customer_id" AS "w_customer_id", "w"."currency" AS "w_currency", "w"."balance" AS "w_balance" FROM "wallets" "w" WHERE "w"."company_id" = $1 AND "w"."customer_id" = $2 FOR UPDATE;

-- WalletRepository.ofCustomer
SELECT "Wallet"."id" AS "Wallet_id", "Wallet"."created_at" AS "Wallet_created_at", "Wallet"."updated_at" AS "Wallet_updated_at", "Wallet"."company_id" AS "Wallet_company_id", "Wallet"."customer_id" AS "Wallet_customer_id", "Wallet"."currency" AS "Wallet_currency", "Wallet"."balance" AS "Wallet_balance" FROM "wallets" "Wallet" WHERE (("Wallet"."company_id" = $1) AND ("Wallet"."customer_id" = $2)) LIMIT 1;
