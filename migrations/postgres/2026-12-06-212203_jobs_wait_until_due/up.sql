-- When a waiting job may run: a job that asked to be tried again later (a webhook whose
-- receiver failed) waits, pending, until then; NULL: as soon as a worker is free.
ALTER TABLE jobs ADD COLUMN run_after BIGINT;
