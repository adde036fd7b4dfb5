-- The oldest job a lane may take is found along this index, in creation order, without
-- reading the rows: with thousands of webhook deliveries waiting, a claim reads one entry
-- instead of sorting every waiting job (and holding the write lock meanwhile).
DROP INDEX jobs_waiting;
CREATE INDEX jobs_waiting ON jobs (status, created, id, name, run_after);
