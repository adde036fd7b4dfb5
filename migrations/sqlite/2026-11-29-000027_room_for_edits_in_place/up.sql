-- Nothing on SQLite: it has no fill factor, and an edit rewrites the row's index entries
-- only for the indexed columns it changes. The migration exists on both backends, as
-- every migration does, so that both have the same history.
SELECT 1;
