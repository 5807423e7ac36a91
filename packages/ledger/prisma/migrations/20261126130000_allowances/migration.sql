-- Allowances (RFC 4006-style credit control): a data plane reserves one sum for a hot account and spends
-- it in memory, request by request. The allowance is a reservation row of kind 'allowance' whose
-- amount_micros is what it still holds; each request it paid for is written at settlement as its own
-- reservation row (kind 'request', allowance_id set), committed or voided, with its ledger row.
ALTER TABLE "reservations" ADD COLUMN "kind" TEXT NOT NULL DEFAULT 'request',
ADD COLUMN "allowance_id" UUID,
ADD COLUMN "released_at" TIMESTAMPTZ(3);

ALTER TABLE "reservations" ADD CONSTRAINT "reservations_kind_known" CHECK ("kind" IN ('request', 'allowance'));
-- Only a request is paid from an allowance, and an allowance has no key (caps are never taken from one).
ALTER TABLE "reservations" ADD CONSTRAINT "reservations_allowance_shape"
  CHECK (("kind" = 'request') OR ("allowance_id" IS NULL AND "api_key_id" IS NULL));
