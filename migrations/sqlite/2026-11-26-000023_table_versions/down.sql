CREATE TABLE data_version (
    id INTEGER PRIMARY KEY CHECK (id = 1),
    version BIGINT NOT NULL
);
INSERT INTO data_version (id, version)
    SELECT 1, COALESCE((SELECT version FROM table_versions WHERE name = '*'), 0);
DROP TABLE table_versions;
