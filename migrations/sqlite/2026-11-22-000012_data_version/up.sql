-- One row whose value every write transaction changes (to a random number, so that a
-- database restored from a backup never repeats a value an instance has seen). Instances
-- key their cache of rendered answers by it: a write through any instance is seen by all.
CREATE TABLE data_version (
    id INTEGER PRIMARY KEY CHECK (id = 1),
    version BIGINT NOT NULL
);
INSERT INTO data_version (id, version) VALUES (1, 0);
