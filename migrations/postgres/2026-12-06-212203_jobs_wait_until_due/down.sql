ALTER TABLE jobs DROP COLUMN run_after;
