-- CreateTable
CREATE TABLE "provider_catalog_state" (
    "provider_id" TEXT NOT NULL,
    "voices" JSONB,
    "voices_refreshed_at" TIMESTAMPTZ(3),
    "voices_claimed_at" TIMESTAMPTZ(3),
    "voices_failure" TEXT,
    "last_smoke_test_at" TIMESTAMPTZ(3),
    "smoke_test_claimed_at" TIMESTAMPTZ(3),
    "smoke_test_failure" TEXT,
    "updated_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "provider_catalog_state_pkey" PRIMARY KEY ("provider_id")
);
