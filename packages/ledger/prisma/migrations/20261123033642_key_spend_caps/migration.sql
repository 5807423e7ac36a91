-- AlterTable
ALTER TABLE "reservations" ADD COLUMN     "spend_day" DATE,
ADD COLUMN     "spend_month" DATE;

-- CreateTable
CREATE TABLE "key_spend" (
    "api_key_id" UUID NOT NULL,
    "window_kind" TEXT NOT NULL,
    "window_start" DATE NOT NULL,
    "spent_micros" BIGINT NOT NULL,
    "cap_micros" BIGINT NOT NULL,

    CONSTRAINT "key_spend_pkey" PRIMARY KEY ("api_key_id","window_kind","window_start")
);

-- AddForeignKey
ALTER TABLE "key_spend" ADD CONSTRAINT "key_spend_api_key_id_fkey" FOREIGN KEY ("api_key_id") REFERENCES "api_keys"("id") ON DELETE RESTRICT ON UPDATE CASCADE;

-- The spend-cap guard lives in the database: a reservation that would take a window past its cap
-- violates one of these and the whole reservation statement is rolled back (reserve-credit.ts names
-- the cap from the constraint). Added by hand; the Prisma schema cannot express CHECK constraints.
ALTER TABLE "key_spend" ADD CONSTRAINT "key_spend_window_kind_known" CHECK ("window_kind" IN ('day', 'month'));
ALTER TABLE "key_spend" ADD CONSTRAINT "key_spend_spent_nonnegative" CHECK ("spent_micros" >= 0);
ALTER TABLE "key_spend" ADD CONSTRAINT "key_spend_daily_cap" CHECK ("window_kind" <> 'day' OR "spent_micros" <= "cap_micros");
ALTER TABLE "key_spend" ADD CONSTRAINT "key_spend_monthly_cap" CHECK ("window_kind" <> 'month' OR "spent_micros" <= "cap_micros");
ALTER TABLE "api_keys" ADD CONSTRAINT "api_keys_spend_caps_nonnegative"
  CHECK (("daily_spend_cap_micros" IS NULL OR "daily_spend_cap_micros" >= 0) AND ("monthly_spend_cap_micros" IS NULL OR "monthly_spend_cap_micros" >= 0));
