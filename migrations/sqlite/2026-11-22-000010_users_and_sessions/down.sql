DROP TABLE sessions;
ALTER TABLE users DROP COLUMN preferences;
ALTER TABLE users DROP COLUMN permissions;
DROP TABLE user_groups;
DROP TABLE groups;
