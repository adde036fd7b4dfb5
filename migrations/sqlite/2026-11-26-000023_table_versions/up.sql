-- A version per table instead of one for the whole database: every write transaction gives
-- each table it wrote, and the whole database (`*`), a new random value. Caches of answers
-- key them by the tables they read, so a write elsewhere leaves them valid.
CREATE TABLE table_versions (
    name TEXT PRIMARY KEY,
    version BIGINT NOT NULL
);
INSERT INTO table_versions (name, version) SELECT '*', version FROM data_version;
DROP TABLE data_version;
