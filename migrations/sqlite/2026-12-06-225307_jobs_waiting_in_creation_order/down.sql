DROP INDEX jobs_waiting;
CREATE INDEX jobs_waiting ON jobs (status, created);
