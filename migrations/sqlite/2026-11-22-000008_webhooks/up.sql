-- Webhook definitions (their delivery comes later). `content_types` is a JSON array of
-- `app.model` names.
CREATE TABLE webhooks (
    id INTEGER PRIMARY KEY AUTOINCREMENT,
    content_types TEXT NOT NULL,
    name TEXT NOT NULL UNIQUE,
    name_lc TEXT NOT NULL,
    type_create BOOLEAN NOT NULL DEFAULT 0,
    type_update BOOLEAN NOT NULL DEFAULT 0,
    type_delete BOOLEAN NOT NULL DEFAULT 0,
    payload_url TEXT NOT NULL,
    payload_url_lc TEXT NOT NULL,
    enabled BOOLEAN NOT NULL DEFAULT 1,
    http_method TEXT NOT NULL DEFAULT 'POST',
    http_content_type TEXT NOT NULL DEFAULT 'application/json',
    http_content_type_lc TEXT NOT NULL DEFAULT 'application/json',
    additional_headers TEXT NOT NULL DEFAULT '',
    body_template TEXT NOT NULL DEFAULT '',
    secret TEXT NOT NULL DEFAULT '',
    conditions TEXT,
    ssl_verification BOOLEAN NOT NULL DEFAULT 1,
    ca_file_path TEXT,
    created BIGINT NOT NULL,
    updated BIGINT NOT NULL,
    UNIQUE (type_create, type_update, type_delete, payload_url)
);
