-- Free-text search (`q`) of autonomous systems through a trigram index of the lower-cased
-- names and AS-SETs instead of a scan of every row: an FTS5 table whose trigrams the store
-- queries as a phrase (a substring, as `LIKE '%…%'` matches), kept in step by triggers.
CREATE VIRTUAL TABLE autonomous_systems_search USING fts5(
    name_lc,
    irr_as_set_lc,
    content = 'autonomous_systems',
    content_rowid = 'id',
    tokenize = 'trigram case_sensitive 1'
);
INSERT INTO autonomous_systems_search (autonomous_systems_search) VALUES ('rebuild');

CREATE TRIGGER autonomous_systems_search_insert AFTER INSERT ON autonomous_systems BEGIN
    INSERT INTO autonomous_systems_search (rowid, name_lc, irr_as_set_lc)
    VALUES (new.id, new.name_lc, new.irr_as_set_lc);
END;

CREATE TRIGGER autonomous_systems_search_delete AFTER DELETE ON autonomous_systems BEGIN
    INSERT INTO autonomous_systems_search (autonomous_systems_search, rowid, name_lc, irr_as_set_lc)
    VALUES ('delete', old.id, old.name_lc, old.irr_as_set_lc);
END;

CREATE TRIGGER autonomous_systems_search_update AFTER UPDATE OF name_lc, irr_as_set_lc
ON autonomous_systems BEGIN
    INSERT INTO autonomous_systems_search (autonomous_systems_search, rowid, name_lc, irr_as_set_lc)
    VALUES ('delete', old.id, old.name_lc, old.irr_as_set_lc);
    INSERT INTO autonomous_systems_search (rowid, name_lc, irr_as_set_lc)
    VALUES (new.id, new.name_lc, new.irr_as_set_lc);
END;
