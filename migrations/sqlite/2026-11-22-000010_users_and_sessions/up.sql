-- Groups of users, permissions granted to users and groups, user preferences, and the
-- sessions of people logged in with a browser.
CREATE TABLE groups (
    id INTEGER PRIMARY KEY AUTOINCREMENT,
    name TEXT NOT NULL UNIQUE,
    name_lc TEXT NOT NULL,
    permissions TEXT NOT NULL DEFAULT '[]'
);

CREATE TABLE user_groups (
    id INTEGER PRIMARY KEY AUTOINCREMENT,
    user_id BIGINT NOT NULL REFERENCES users (id) ON DELETE CASCADE,
    group_id BIGINT NOT NULL REFERENCES groups (id) ON DELETE CASCADE,
    UNIQUE (user_id, group_id)
);
CREATE INDEX user_groups_group ON user_groups (group_id);

ALTER TABLE users ADD COLUMN permissions TEXT NOT NULL DEFAULT '[]';
ALTER TABLE users ADD COLUMN preferences TEXT NOT NULL DEFAULT '{}';

CREATE TABLE sessions (
    id INTEGER PRIMARY KEY AUTOINCREMENT,
    key_hash TEXT NOT NULL UNIQUE,
    user_id BIGINT NOT NULL REFERENCES users (id) ON DELETE CASCADE,
    csrf_token TEXT NOT NULL,
    created BIGINT NOT NULL,
    expires BIGINT NOT NULL
);
CREATE INDEX sessions_user_id ON sessions (user_id);
