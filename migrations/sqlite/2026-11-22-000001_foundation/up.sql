-- Portable schema: timestamps are BIGINT microseconds since the Unix epoch (UTC), text
-- fields searched case-insensitively keep a lower-cased copy in `<column>_lc`, JSON is TEXT.
CREATE TABLE users (
    id INTEGER PRIMARY KEY AUTOINCREMENT,
    username TEXT NOT NULL UNIQUE,
    username_lc TEXT NOT NULL,
    password TEXT NOT NULL DEFAULT '',
    first_name TEXT NOT NULL DEFAULT '',
    first_name_lc TEXT NOT NULL DEFAULT '',
    last_name TEXT NOT NULL DEFAULT '',
    last_name_lc TEXT NOT NULL DEFAULT '',
    email TEXT NOT NULL DEFAULT '',
    email_lc TEXT NOT NULL DEFAULT '',
    is_staff BOOLEAN NOT NULL DEFAULT 0,
    is_active BOOLEAN NOT NULL DEFAULT 1,
    is_superuser BOOLEAN NOT NULL DEFAULT 0,
    date_joined BIGINT NOT NULL
);

CREATE TABLE tokens (
    id INTEGER PRIMARY KEY AUTOINCREMENT,
    user_id BIGINT NOT NULL REFERENCES users (id) ON DELETE CASCADE,
    key_hash TEXT NOT NULL UNIQUE,
    key_suffix TEXT NOT NULL,
    created BIGINT NOT NULL,
    expires BIGINT,
    last_used BIGINT,
    write_enabled BOOLEAN NOT NULL DEFAULT 1,
    description TEXT NOT NULL DEFAULT ''
);
CREATE INDEX tokens_user_id ON tokens (user_id);

CREATE TABLE tags (
    id INTEGER PRIMARY KEY AUTOINCREMENT,
    name TEXT NOT NULL UNIQUE,
    name_lc TEXT NOT NULL,
    slug TEXT NOT NULL UNIQUE,
    slug_lc TEXT NOT NULL,
    color TEXT NOT NULL DEFAULT '9e9e9e',
    description TEXT NOT NULL DEFAULT '',
    description_lc TEXT NOT NULL DEFAULT '',
    created BIGINT NOT NULL,
    updated BIGINT NOT NULL
);

CREATE TABLE tagged_items (
    id INTEGER PRIMARY KEY AUTOINCREMENT,
    tag_id BIGINT NOT NULL REFERENCES tags (id) ON DELETE CASCADE,
    object_type TEXT NOT NULL,
    object_id BIGINT NOT NULL,
    UNIQUE (tag_id, object_type, object_id)
);
CREATE INDEX tagged_items_object ON tagged_items (object_type, object_id);

CREATE TABLE communities (
    id INTEGER PRIMARY KEY AUTOINCREMENT,
    name TEXT NOT NULL UNIQUE,
    name_lc TEXT NOT NULL,
    slug TEXT NOT NULL UNIQUE,
    slug_lc TEXT NOT NULL,
    description TEXT NOT NULL DEFAULT '',
    description_lc TEXT NOT NULL DEFAULT '',
    value TEXT NOT NULL,
    value_lc TEXT NOT NULL,
    type TEXT,
    comments TEXT NOT NULL DEFAULT '',
    local_context_data TEXT,
    created BIGINT NOT NULL,
    updated BIGINT NOT NULL
);
CREATE INDEX communities_value ON communities (value, name);

CREATE TABLE routing_policies (
    id INTEGER PRIMARY KEY AUTOINCREMENT,
    name TEXT NOT NULL UNIQUE,
    name_lc TEXT NOT NULL,
    slug TEXT NOT NULL UNIQUE,
    slug_lc TEXT NOT NULL,
    description TEXT NOT NULL DEFAULT '',
    description_lc TEXT NOT NULL DEFAULT '',
    type TEXT NOT NULL DEFAULT 'import-policy',
    weight BIGINT NOT NULL DEFAULT 0,
    address_family TEXT NOT NULL DEFAULT '0',
    comments TEXT NOT NULL DEFAULT '',
    local_context_data TEXT,
    created BIGINT NOT NULL,
    updated BIGINT NOT NULL
);

CREATE TABLE routing_policy_communities (
    id INTEGER PRIMARY KEY AUTOINCREMENT,
    routing_policy_id BIGINT NOT NULL REFERENCES routing_policies (id) ON DELETE CASCADE,
    community_id BIGINT NOT NULL REFERENCES communities (id) ON DELETE CASCADE,
    UNIQUE (routing_policy_id, community_id)
);
CREATE INDEX routing_policy_communities_community ON routing_policy_communities (community_id);

CREATE TABLE autonomous_systems (
    id INTEGER PRIMARY KEY AUTOINCREMENT,
    asn BIGINT NOT NULL UNIQUE,
    name TEXT NOT NULL,
    name_lc TEXT NOT NULL,
    comments TEXT NOT NULL DEFAULT '',
    irr_as_set TEXT,
    irr_as_set_lc TEXT,
    irr_as_set_extdb_sync BOOLEAN NOT NULL DEFAULT 1,
    ipv6_max_prefixes BIGINT DEFAULT 0,
    ipv6_max_prefixes_extdb_sync BOOLEAN NOT NULL DEFAULT 1,
    ipv4_max_prefixes BIGINT DEFAULT 0,
    ipv4_max_prefixes_extdb_sync BOOLEAN NOT NULL DEFAULT 1,
    prefixes TEXT,
    affiliated BOOLEAN NOT NULL DEFAULT 0,
    local_context_data TEXT,
    description TEXT NOT NULL DEFAULT '',
    description_lc TEXT NOT NULL DEFAULT '',
    created BIGINT NOT NULL,
    updated BIGINT NOT NULL
);
CREATE INDEX autonomous_systems_name_lc ON autonomous_systems (name_lc);
CREATE INDEX autonomous_systems_affiliated ON autonomous_systems (affiliated, asn);

CREATE TABLE autonomous_system_import_routing_policies (
    id INTEGER PRIMARY KEY AUTOINCREMENT,
    autonomous_system_id BIGINT NOT NULL REFERENCES autonomous_systems (id) ON DELETE CASCADE,
    routing_policy_id BIGINT NOT NULL REFERENCES routing_policies (id) ON DELETE CASCADE,
    UNIQUE (autonomous_system_id, routing_policy_id)
);
CREATE INDEX as_import_policies_policy ON autonomous_system_import_routing_policies (routing_policy_id);

CREATE TABLE autonomous_system_export_routing_policies (
    id INTEGER PRIMARY KEY AUTOINCREMENT,
    autonomous_system_id BIGINT NOT NULL REFERENCES autonomous_systems (id) ON DELETE CASCADE,
    routing_policy_id BIGINT NOT NULL REFERENCES routing_policies (id) ON DELETE CASCADE,
    UNIQUE (autonomous_system_id, routing_policy_id)
);
CREATE INDEX as_export_policies_policy ON autonomous_system_export_routing_policies (routing_policy_id);

CREATE TABLE autonomous_system_communities (
    id INTEGER PRIMARY KEY AUTOINCREMENT,
    autonomous_system_id BIGINT NOT NULL REFERENCES autonomous_systems (id) ON DELETE CASCADE,
    community_id BIGINT NOT NULL REFERENCES communities (id) ON DELETE CASCADE,
    UNIQUE (autonomous_system_id, community_id)
);
CREATE INDEX as_communities_community ON autonomous_system_communities (community_id);

CREATE TABLE object_changes (
    id INTEGER PRIMARY KEY AUTOINCREMENT,
    time BIGINT NOT NULL,
    user_id BIGINT REFERENCES users (id) ON DELETE SET NULL,
    user_name TEXT NOT NULL,
    user_name_lc TEXT NOT NULL,
    request_id TEXT NOT NULL,
    action TEXT NOT NULL,
    changed_object_type TEXT NOT NULL,
    changed_object_type_lc TEXT NOT NULL,
    changed_object_id BIGINT NOT NULL,
    object_repr TEXT NOT NULL,
    object_repr_lc TEXT NOT NULL,
    prechange_data TEXT,
    postchange_data TEXT
);
CREATE INDEX object_changes_time ON object_changes (time);
CREATE INDEX object_changes_request ON object_changes (request_id, changed_object_type);
CREATE INDEX object_changes_object ON object_changes (changed_object_type, changed_object_id);
CREATE INDEX object_changes_user ON object_changes (user_id);
