-- The secrets removed from change records cannot be restored; nothing to undo.
SELECT 1;
