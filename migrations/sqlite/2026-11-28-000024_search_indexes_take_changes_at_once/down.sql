-- Nothing on SQLite: its search index (an FTS5 table) has no pending list of this kind.
-- The migration exists on both backends, as every migration does, so that both have the
-- same history.
SELECT 1;
