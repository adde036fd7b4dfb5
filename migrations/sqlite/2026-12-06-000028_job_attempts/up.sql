-- How many times a worker took each job up. A job taken back from a worker that died
-- (its lease ended) counts one more: one that acts outside peeringd (a configuration
-- pushed to a router) then ends "interrupted" rather than act twice, and no job is taken
-- up without end. Jobs running during the upgrade have been taken up once.
ALTER TABLE jobs ADD COLUMN attempts INTEGER NOT NULL DEFAULT 0;
UPDATE jobs SET attempts = 1 WHERE status = 'running';
