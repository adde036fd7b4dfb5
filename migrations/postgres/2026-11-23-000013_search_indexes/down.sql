DROP INDEX IF EXISTS autonomous_systems_irr_as_set_trgm;
DROP INDEX IF EXISTS autonomous_systems_name_trgm;
