-- Every reservation is looked up by (state, created_at) only while it is pending (the reaper, a
-- wallet's pending sum, the open-reservations report), yet every commit, void and allowance payment
-- row put an entry into this index: a settled row's new version is a new index entry, for a row no
-- query reaches that way again. The same index restricted to pending rows: settled rows leave it, rows
-- written settled (payments from allowances) never enter it, and it stays as small as the backlog.
-- Prisma's schema cannot say "partial": it keeps @@index([state, createdAt]), and this file is the truth.
-- Building it reads the reservations table once and holds writes to it meanwhile: on a large table,
-- migrate during a quiet moment (the index it builds is small: only pending rows enter it).
DROP INDEX "reservations_state_created_at_idx";
CREATE INDEX "reservations_state_created_at_idx" ON "reservations"("state", "created_at") WHERE "state" = 'pending';
