DO $$
BEGIN
    IF to_regclass('autonomous_systems_name_trgm') IS NOT NULL THEN
        ALTER INDEX autonomous_systems_name_trgm RESET (fastupdate);
    END IF;
    IF to_regclass('autonomous_systems_irr_as_set_trgm') IS NOT NULL THEN
        ALTER INDEX autonomous_systems_irr_as_set_trgm RESET (fastupdate);
    END IF;
END
$$;
