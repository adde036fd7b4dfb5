-- The trigram indexes of `q` take each change at once, not into a pending list (GIN's
-- `fastupdate`). Every search reads the whole pending list besides the index, and
-- concurrent searches queue on its pages: six autonomous systems edited and waiting
-- there made searches five times as dear (700 a second instead of 3,500 on 5,000
-- autonomous systems) until a vacuum merged them. An edit of an autonomous system now
-- updates the indexes itself, which is small. Without pg_trgm there are no such indexes;
-- a role that may not alter them leaves them as they are, as migration 13 does.
DO $$
BEGIN
    IF to_regclass('autonomous_systems_name_trgm') IS NOT NULL THEN
        ALTER INDEX autonomous_systems_name_trgm SET (fastupdate = off);
        PERFORM gin_clean_pending_list('autonomous_systems_name_trgm'::regclass);
    END IF;
    IF to_regclass('autonomous_systems_irr_as_set_trgm') IS NOT NULL THEN
        ALTER INDEX autonomous_systems_irr_as_set_trgm SET (fastupdate = off);
        PERFORM gin_clean_pending_list('autonomous_systems_irr_as_set_trgm'::regclass);
    END IF;
EXCEPTION
    WHEN insufficient_privilege THEN
        RAISE NOTICE 'the search indexes keep their pending list (%)', SQLERRM;
END
$$;
