-- Only operator grants, payment credits and debits carry an idempotency key; every reserve and commit
-- row left a NULL entry in the unique index, one index insert per ledger row for nothing. The same
-- uniqueness (NULLs never conflicted) and the same lookups (`idempotency_key = $1` implies NOT NULL)
-- from a partial index. Prisma's schema cannot say "partial": it keeps @unique, and this file is the truth.
-- Building it reads the whole ledger once and holds writes to it meanwhile: on a large ledger, migrate
-- during a quiet moment (the index it builds is small: only keyed rows enter it).
DROP INDEX "ledger_entries_idempotency_key_key";
CREATE UNIQUE INDEX "ledger_entries_idempotency_key_key" ON "ledger_entries"("idempotency_key") WHERE "idempotency_key" IS NOT NULL;
