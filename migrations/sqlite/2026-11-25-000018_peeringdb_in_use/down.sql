ALTER TABLE autonomous_systems DROP COLUMN name_extdb_sync;
ALTER TABLE internet_exchange_peering_sessions ADD COLUMN is_abandoned BOOLEAN NOT NULL DEFAULT 0;
ALTER TABLE internet_exchange_peering_sessions ADD COLUMN exists_in_extdb BOOLEAN NOT NULL DEFAULT 0;
