-- ledger_entries and reservations referred to accounts through foreign keys, which PostgreSQL checks
-- one row at a time: every inserted row ran its own lookup of its account and locked it (FOR KEY
-- SHARE), even when the statement wrote 200 rows for a handful of accounts. Settlement writes its
-- commits up to 200 to a statement, and those per-row checks were about a fifth of PostgreSQL's CPU
-- per commit (bench/HISTORY.md, session 27). The same rule is now checked once per statement, over
-- the rows it inserted: every account they name must exist.
--
-- The other direction, which the foreign keys enforced with ON DELETE RESTRICT and ON UPDATE CASCADE
-- (a cascade the append-only ledger refused anyway): an account is never deleted and its id never
-- changes. Nothing in the service does either: the ledger refers to its accounts forever, and wallets,
-- keys and memberships already restrict deleting them. An account that can never go away needs no
-- lock while a row that names it is written (the foreign key took one, FOR KEY SHARE, for every row),
-- and the rule holds at every isolation level. A reservation's account_id never changes either
-- (ledger rows cannot change at all).
--
-- Every refusal uses the foreign key's SQLSTATE (23503); an insert's names the old constraint. Prisma's
-- schema keeps the relations (for typed access); this file is the truth.
ALTER TABLE "ledger_entries" DROP CONSTRAINT "ledger_entries_account_id_fkey";
ALTER TABLE "reservations" DROP CONSTRAINT "reservations_account_id_fkey";

CREATE FUNCTION "account_references_exist"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF EXISTS (SELECT 1 FROM inserted WHERE NOT EXISTS (SELECT 1 FROM accounts WHERE accounts.id = inserted.account_id)) THEN
    RAISE EXCEPTION 'insert on table "%" names an account that does not exist', TG_TABLE_NAME
      USING ERRCODE = 'foreign_key_violation', TABLE = TG_TABLE_NAME, COLUMN = 'account_id',
            CONSTRAINT = TG_TABLE_NAME || '_account_id_fkey';
  END IF;
  RETURN NULL;
END;
$$;
CREATE TRIGGER "ledger_entries_account_id_fkey"
  AFTER INSERT ON "ledger_entries" REFERENCING NEW TABLE AS inserted
  FOR EACH STATEMENT EXECUTE FUNCTION "account_references_exist"();
CREATE TRIGGER "reservations_account_id_fkey"
  AFTER INSERT ON "reservations" REFERENCING NEW TABLE AS inserted
  FOR EACH STATEMENT EXECUTE FUNCTION "account_references_exist"();

CREATE FUNCTION "account_id_permanent"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  RAISE EXCEPTION '%: % on table "%" refused: an account is never deleted or re-keyed, and a reservation never changes account',
    TG_NAME, TG_OP, TG_TABLE_NAME
    USING ERRCODE = 'foreign_key_violation', TABLE = TG_TABLE_NAME, CONSTRAINT = TG_NAME;
END;
$$;
CREATE TRIGGER "accounts_never_deleted"
  BEFORE DELETE ON "accounts"
  FOR EACH ROW EXECUTE FUNCTION "account_id_permanent"();
CREATE TRIGGER "accounts_id_unchanged"
  BEFORE UPDATE OF "id" ON "accounts"
  FOR EACH ROW WHEN (OLD."id" IS DISTINCT FROM NEW."id") EXECUTE FUNCTION "account_id_permanent"();
CREATE TRIGGER "accounts_never_truncated"
  BEFORE TRUNCATE ON "accounts"
  FOR EACH STATEMENT EXECUTE FUNCTION "account_id_permanent"();
CREATE TRIGGER "reservations_account_id_unchanged"
  BEFORE UPDATE OF "account_id" ON "reservations"
  FOR EACH ROW WHEN (OLD."account_id" IS DISTINCT FROM NEW."account_id") EXECUTE FUNCTION "account_id_permanent"();
