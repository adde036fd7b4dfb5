-- Whether a session is in PeeringDB, or abandoned, is computed when it is read.
ALTER TABLE internet_exchange_peering_sessions DROP COLUMN exists_in_extdb;
ALTER TABLE internet_exchange_peering_sessions DROP COLUMN is_abandoned;
-- Kept, not shown, as the reference: whether a PeeringDB synchronisation renames.
ALTER TABLE autonomous_systems ADD COLUMN name_extdb_sync BOOLEAN NOT NULL DEFAULT 1;
