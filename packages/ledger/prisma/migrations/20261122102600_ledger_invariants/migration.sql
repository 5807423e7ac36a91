-- Invariants the Prisma schema cannot express. The database, not only the code, keeps money exact.

-- A wallet never reserves more than it holds, and nothing goes negative.
ALTER TABLE "wallets" ADD CONSTRAINT "wallets_reserved_nonnegative" CHECK ("reserved_micros" >= 0);
ALTER TABLE "wallets" ADD CONSTRAINT "wallets_reserved_covered" CHECK ("balance_micros" >= "reserved_micros");

ALTER TABLE "reservations" ADD CONSTRAINT "reservations_amount_nonnegative" CHECK ("amount_micros" >= 0);
ALTER TABLE "reservations" ADD CONSTRAINT "reservations_state_known" CHECK ("state" IN ('pending', 'committed', 'voided'));
ALTER TABLE "accounts" ADD CONSTRAINT "accounts_kind_known" CHECK ("kind" IN ('personal', 'organization'));
ALTER TABLE "ledger_entries" ADD CONSTRAINT "ledger_entries_kind_known" CHECK ("kind" IN ('top-up', 'reserve', 'commit', 'refund', 'void'));

-- A reservation is settled exactly once: at most one commit or void row per reservation.
CREATE UNIQUE INDEX "ledger_entries_one_settlement" ON "ledger_entries"("reservation_id") WHERE "kind" IN ('commit', 'void');

-- The ledger is append-only: rows can be added, never changed or removed.
CREATE FUNCTION "ledger_entries_append_only"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  RAISE EXCEPTION 'ledger_entries is append-only (% refused)', TG_OP;
END;
$$;
CREATE TRIGGER "ledger_entries_no_update_or_delete"
  BEFORE UPDATE OR DELETE ON "ledger_entries"
  FOR EACH ROW EXECUTE FUNCTION "ledger_entries_append_only"();
CREATE TRIGGER "ledger_entries_no_truncate"
  BEFORE TRUNCATE ON "ledger_entries"
  FOR EACH STATEMENT EXECUTE FUNCTION "ledger_entries_append_only"();
