-- Schedules: work that runs by itself (a PeeringDB synchronisation, polling sessions,
-- refreshing prefixes, retention), one row per schedule by name. Every instance on the
-- database looks at the rows; the one that moves `next_due` on (a single UPDATE that
-- requires it to be due) enqueues the run's jobs in the same transaction, so that each
-- run happens once. `interval_secs` is the interval the row was armed with: an instance
-- with another setting arms it again. Times are microseconds since the epoch.
CREATE TABLE schedules (
    name TEXT PRIMARY KEY,
    interval_secs BIGINT NOT NULL,
    next_due BIGINT NOT NULL
);
