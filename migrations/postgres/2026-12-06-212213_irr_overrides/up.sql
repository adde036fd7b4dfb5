-- The reference's 1.10 fields of autonomous systems (its migration 0107): whether a
-- refresh asks the IRR for the prefixes, and the sources and bgpq4 arguments used instead
-- of the settings'.
ALTER TABLE autonomous_systems ADD COLUMN retrieve_prefixes BOOLEAN NOT NULL DEFAULT TRUE;
ALTER TABLE autonomous_systems ADD COLUMN irr_sources_override TEXT NOT NULL DEFAULT '';
ALTER TABLE autonomous_systems ADD COLUMN irr_ipv6_prefixes_args_override TEXT NOT NULL DEFAULT '';
ALTER TABLE autonomous_systems ADD COLUMN irr_ipv4_prefixes_args_override TEXT NOT NULL DEFAULT '';
