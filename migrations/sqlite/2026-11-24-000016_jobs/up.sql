-- Jobs: work run in the background by the server's workers. `params` holds what the job
-- needs (never shown); `lease_until` and `worker` say which worker runs it and until when
-- it counts as alive: a job whose worker died is taken up again once its lease ends.
CREATE TABLE jobs (
    id INTEGER PRIMARY KEY AUTOINCREMENT,
    object_type TEXT,
    object_id BIGINT,
    name TEXT NOT NULL,
    name_lc TEXT NOT NULL,
    status TEXT NOT NULL DEFAULT 'pending',
    created BIGINT NOT NULL,
    started BIGINT,
    completed BIGINT,
    user_id BIGINT REFERENCES users (id) ON DELETE SET NULL,
    data TEXT,
    job_id TEXT NOT NULL UNIQUE,
    output TEXT,
    params TEXT NOT NULL DEFAULT '{}',
    lease_until BIGINT,
    worker TEXT
);
CREATE INDEX jobs_created ON jobs (created);
CREATE INDEX jobs_waiting ON jobs (status, created);
CREATE INDEX jobs_user ON jobs (user_id);
