-- Free-text search (`q`) of autonomous systems through trigram indexes of the lower-cased
-- names and AS-SETs instead of a scan of every row: `pg_trgm` GIN indexes, which serve
-- `LIKE '%…%'` as written. Where the extension cannot be had (not installed, or not allowed
-- to this user), searches scan, as before.
DO $$
BEGIN
    CREATE EXTENSION IF NOT EXISTS pg_trgm;
    CREATE INDEX autonomous_systems_name_trgm ON autonomous_systems
        USING gin (name_lc gin_trgm_ops);
    CREATE INDEX autonomous_systems_irr_as_set_trgm ON autonomous_systems
        USING gin (irr_as_set_lc gin_trgm_ops);
EXCEPTION
    WHEN undefined_file OR insufficient_privilege OR feature_not_supported THEN
        RAISE NOTICE 'pg_trgm is not available (%): searches scan', SQLERRM;
END
$$;
