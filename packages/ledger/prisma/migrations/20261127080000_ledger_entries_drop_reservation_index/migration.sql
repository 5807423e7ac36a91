-- No query looks ledger rows up by reservation_id alone: settlement decides "already settled" through
-- ledger_entries_one_settlement (the partial unique index on reservation_id for commit and void rows),
-- and every read (activity, usage, audit) goes by account. Yet every ledger row, one or more per
-- request, put a random uuid into this index. Dropping it takes one index insertion off each row.
DROP INDEX "ledger_entries_reservation_id_idx";
