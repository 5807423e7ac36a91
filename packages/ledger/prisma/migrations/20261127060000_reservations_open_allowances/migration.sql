-- The open allowances of one account (allowanceMoneyHeld: a data plane refused a request asks whether
-- other data planes hold money of the account). Few rows at a time, and request rows never enter it.
-- Prisma's schema cannot say "partial": this file is the truth.
CREATE INDEX "reservations_open_allowances_idx" ON "reservations"("account_id") WHERE "kind" = 'allowance' AND "state" = 'pending';
