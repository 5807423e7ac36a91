-- CreateTable
CREATE TABLE "billing_customers" (
    "account_id" UUID NOT NULL,
    "stripe_customer_id" TEXT NOT NULL,
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "billing_customers_pkey" PRIMARY KEY ("account_id")
);

-- CreateTable
CREATE TABLE "top_ups" (
    "id" TEXT NOT NULL,
    "account_id" UUID NOT NULL,
    "amount_cents" INTEGER NOT NULL,
    "payment_method_id" TEXT,
    "status" TEXT NOT NULL,
    "failure_code" TEXT,
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updated_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "top_ups_pkey" PRIMARY KEY ("id")
);

-- CreateIndex
CREATE UNIQUE INDEX "billing_customers_stripe_customer_id_key" ON "billing_customers"("stripe_customer_id");

-- CreateIndex
CREATE INDEX "top_ups_account_id_created_at_idx" ON "top_ups"("account_id", "created_at" DESC);

-- AddForeignKey
ALTER TABLE "billing_customers" ADD CONSTRAINT "billing_customers_account_id_fkey" FOREIGN KEY ("account_id") REFERENCES "accounts"("id") ON DELETE RESTRICT ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "top_ups" ADD CONSTRAINT "top_ups_account_id_fkey" FOREIGN KEY ("account_id") REFERENCES "accounts"("id") ON DELETE RESTRICT ON UPDATE CASCADE;

-- A top-up is for a positive amount (the API allows 1000..100000 cents).
ALTER TABLE "top_ups" ADD CONSTRAINT "top_ups_amount_positive" CHECK ("amount_cents" > 0);
