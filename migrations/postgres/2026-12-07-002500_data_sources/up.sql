-- The reference's 1.10 data sources (its core migration 0004): a directory or a Git
-- repository, the files its last synchronisation found, and the fields by which
-- configurations, e-mails and export templates take their text from one of them.
CREATE TABLE data_sources (
    id BIGSERIAL PRIMARY KEY,
    name TEXT NOT NULL UNIQUE,
    name_lc TEXT NOT NULL,
    type TEXT NOT NULL,
    source_url TEXT NOT NULL,
    enabled BOOLEAN NOT NULL DEFAULT TRUE,
    status TEXT NOT NULL DEFAULT 'new',
    description TEXT NOT NULL DEFAULT '',
    description_lc TEXT NOT NULL DEFAULT '',
    comments TEXT NOT NULL DEFAULT '',
    parameters TEXT,
    ignore_rules TEXT NOT NULL DEFAULT '',
    last_synchronised BIGINT,
    created BIGINT NOT NULL,
    updated BIGINT NOT NULL
);
CREATE TABLE data_files (
    id BIGSERIAL PRIMARY KEY,
    source_id BIGINT NOT NULL REFERENCES data_sources (id) ON DELETE CASCADE,
    path TEXT NOT NULL,
    path_lc TEXT NOT NULL,
    created BIGINT NOT NULL,
    updated BIGINT NOT NULL,
    size BIGINT NOT NULL,
    hash TEXT NOT NULL,
    data TEXT,
    UNIQUE (source_id, path)
);
ALTER TABLE configurations ADD COLUMN data_source_id BIGINT REFERENCES data_sources (id) ON DELETE RESTRICT;
ALTER TABLE configurations ADD COLUMN data_file_id BIGINT REFERENCES data_files (id) ON DELETE SET NULL;
ALTER TABLE configurations ADD COLUMN data_path TEXT NOT NULL DEFAULT '';
ALTER TABLE configurations ADD COLUMN auto_synchronisation_enabled BOOLEAN NOT NULL DEFAULT FALSE;
ALTER TABLE configurations ADD COLUMN data_synchronised BIGINT;
CREATE INDEX configurations_data_source ON configurations (data_source_id);
CREATE INDEX configurations_data_file ON configurations (data_file_id);
ALTER TABLE emails ADD COLUMN data_source_id BIGINT REFERENCES data_sources (id) ON DELETE RESTRICT;
ALTER TABLE emails ADD COLUMN data_file_id BIGINT REFERENCES data_files (id) ON DELETE SET NULL;
ALTER TABLE emails ADD COLUMN data_path TEXT NOT NULL DEFAULT '';
ALTER TABLE emails ADD COLUMN auto_synchronisation_enabled BOOLEAN NOT NULL DEFAULT FALSE;
ALTER TABLE emails ADD COLUMN data_synchronised BIGINT;
CREATE INDEX emails_data_source ON emails (data_source_id);
CREATE INDEX emails_data_file ON emails (data_file_id);
ALTER TABLE export_templates ADD COLUMN data_source_id BIGINT REFERENCES data_sources (id) ON DELETE RESTRICT;
ALTER TABLE export_templates ADD COLUMN data_file_id BIGINT REFERENCES data_files (id) ON DELETE SET NULL;
ALTER TABLE export_templates ADD COLUMN data_path TEXT NOT NULL DEFAULT '';
ALTER TABLE export_templates ADD COLUMN auto_synchronisation_enabled BOOLEAN NOT NULL DEFAULT FALSE;
ALTER TABLE export_templates ADD COLUMN data_synchronised BIGINT;
CREATE INDEX export_templates_data_source ON export_templates (data_source_id);
CREATE INDEX export_templates_data_file ON export_templates (data_file_id);
