-- BGP groups, relationships, platforms, configuration templates, routers, contact roles,
-- contacts and e-mail templates. Same conventions as the foundation migration.
CREATE TABLE bgp_groups (
    id INTEGER PRIMARY KEY AUTOINCREMENT,
    name TEXT NOT NULL UNIQUE,
    name_lc TEXT NOT NULL,
    slug TEXT NOT NULL UNIQUE,
    slug_lc TEXT NOT NULL,
    description TEXT NOT NULL DEFAULT '',
    description_lc TEXT NOT NULL DEFAULT '',
    status TEXT NOT NULL DEFAULT 'enabled',
    comments TEXT NOT NULL DEFAULT '',
    local_context_data TEXT,
    created BIGINT NOT NULL,
    updated BIGINT NOT NULL
);

CREATE TABLE bgp_group_import_routing_policies (
    id INTEGER PRIMARY KEY AUTOINCREMENT,
    bgp_group_id BIGINT NOT NULL REFERENCES bgp_groups (id) ON DELETE CASCADE,
    routing_policy_id BIGINT NOT NULL REFERENCES routing_policies (id) ON DELETE CASCADE,
    UNIQUE (bgp_group_id, routing_policy_id)
);
CREATE INDEX bgp_group_import_policies_policy ON bgp_group_import_routing_policies (routing_policy_id);

CREATE TABLE bgp_group_export_routing_policies (
    id INTEGER PRIMARY KEY AUTOINCREMENT,
    bgp_group_id BIGINT NOT NULL REFERENCES bgp_groups (id) ON DELETE CASCADE,
    routing_policy_id BIGINT NOT NULL REFERENCES routing_policies (id) ON DELETE CASCADE,
    UNIQUE (bgp_group_id, routing_policy_id)
);
CREATE INDEX bgp_group_export_policies_policy ON bgp_group_export_routing_policies (routing_policy_id);

CREATE TABLE bgp_group_communities (
    id INTEGER PRIMARY KEY AUTOINCREMENT,
    bgp_group_id BIGINT NOT NULL REFERENCES bgp_groups (id) ON DELETE CASCADE,
    community_id BIGINT NOT NULL REFERENCES communities (id) ON DELETE CASCADE,
    UNIQUE (bgp_group_id, community_id)
);
CREATE INDEX bgp_group_communities_community ON bgp_group_communities (community_id);

CREATE TABLE relationships (
    id INTEGER PRIMARY KEY AUTOINCREMENT,
    name TEXT NOT NULL UNIQUE,
    name_lc TEXT NOT NULL,
    slug TEXT NOT NULL UNIQUE,
    slug_lc TEXT NOT NULL,
    description TEXT NOT NULL DEFAULT '',
    description_lc TEXT NOT NULL DEFAULT '',
    color TEXT NOT NULL DEFAULT '9e9e9e',
    created BIGINT NOT NULL,
    updated BIGINT NOT NULL
);

CREATE TABLE platforms (
    id INTEGER PRIMARY KEY AUTOINCREMENT,
    name TEXT NOT NULL UNIQUE,
    name_lc TEXT NOT NULL,
    slug TEXT NOT NULL UNIQUE,
    slug_lc TEXT NOT NULL,
    description TEXT NOT NULL DEFAULT '',
    description_lc TEXT NOT NULL DEFAULT '',
    password_algorithm TEXT NOT NULL DEFAULT '',
    napalm_driver TEXT NOT NULL DEFAULT '',
    napalm_driver_lc TEXT NOT NULL DEFAULT '',
    napalm_args TEXT,
    created BIGINT NOT NULL,
    updated BIGINT NOT NULL
);

CREATE TABLE configurations (
    id INTEGER PRIMARY KEY AUTOINCREMENT,
    name TEXT NOT NULL,
    name_lc TEXT NOT NULL,
    description TEXT NOT NULL DEFAULT '',
    description_lc TEXT NOT NULL DEFAULT '',
    template TEXT NOT NULL,
    template_lc TEXT NOT NULL,
    jinja2_trim BOOLEAN NOT NULL DEFAULT 0,
    jinja2_lstrip BOOLEAN NOT NULL DEFAULT 0,
    comments TEXT NOT NULL DEFAULT '',
    created BIGINT NOT NULL,
    updated BIGINT NOT NULL
);

CREATE TABLE routers (
    id INTEGER PRIMARY KEY AUTOINCREMENT,
    name TEXT NOT NULL,
    name_lc TEXT NOT NULL,
    hostname TEXT NOT NULL,
    hostname_lc TEXT NOT NULL,
    platform_id BIGINT NOT NULL REFERENCES platforms (id) ON DELETE RESTRICT,
    status TEXT NOT NULL DEFAULT 'enabled',
    encrypt_passwords BOOLEAN NOT NULL DEFAULT 0,
    poll_bgp_sessions_state BOOLEAN NOT NULL DEFAULT 0,
    poll_bgp_sessions_last_updated BIGINT,
    configuration_template_id BIGINT REFERENCES configurations (id) ON DELETE SET NULL,
    local_autonomous_system_id BIGINT NOT NULL REFERENCES autonomous_systems (id) ON DELETE CASCADE,
    netbox_device_id BIGINT NOT NULL DEFAULT 0,
    use_netbox BOOLEAN NOT NULL DEFAULT 0,
    napalm_username TEXT,
    napalm_password TEXT,
    napalm_timeout BIGINT NOT NULL DEFAULT 0,
    napalm_args TEXT,
    local_context_data TEXT,
    comments TEXT NOT NULL DEFAULT '',
    created BIGINT NOT NULL,
    updated BIGINT NOT NULL,
    description TEXT NOT NULL DEFAULT '',
    description_lc TEXT NOT NULL DEFAULT ''
);
CREATE INDEX routers_local_autonomous_system ON routers (local_autonomous_system_id, name);
CREATE INDEX routers_platform ON routers (platform_id);
CREATE INDEX routers_configuration_template ON routers (configuration_template_id);

CREATE TABLE contact_roles (
    id INTEGER PRIMARY KEY AUTOINCREMENT,
    name TEXT NOT NULL UNIQUE,
    name_lc TEXT NOT NULL,
    slug TEXT NOT NULL UNIQUE,
    slug_lc TEXT NOT NULL,
    description TEXT NOT NULL DEFAULT '',
    description_lc TEXT NOT NULL DEFAULT '',
    created BIGINT NOT NULL,
    updated BIGINT NOT NULL
);

CREATE TABLE contacts (
    id INTEGER PRIMARY KEY AUTOINCREMENT,
    name TEXT NOT NULL,
    name_lc TEXT NOT NULL,
    title TEXT NOT NULL DEFAULT '',
    title_lc TEXT NOT NULL DEFAULT '',
    phone TEXT NOT NULL DEFAULT '',
    phone_lc TEXT NOT NULL DEFAULT '',
    email TEXT NOT NULL DEFAULT '',
    email_lc TEXT NOT NULL DEFAULT '',
    address TEXT NOT NULL DEFAULT '',
    address_lc TEXT NOT NULL DEFAULT '',
    description TEXT NOT NULL DEFAULT '',
    description_lc TEXT NOT NULL DEFAULT '',
    comments TEXT NOT NULL DEFAULT '',
    comments_lc TEXT NOT NULL DEFAULT '',
    created BIGINT NOT NULL,
    updated BIGINT NOT NULL
);

CREATE TABLE emails (
    id INTEGER PRIMARY KEY AUTOINCREMENT,
    name TEXT NOT NULL,
    name_lc TEXT NOT NULL,
    subject TEXT NOT NULL,
    subject_lc TEXT NOT NULL,
    template TEXT NOT NULL,
    template_lc TEXT NOT NULL,
    jinja2_trim BOOLEAN NOT NULL DEFAULT 0,
    jinja2_lstrip BOOLEAN NOT NULL DEFAULT 0,
    comments TEXT NOT NULL DEFAULT '',
    created BIGINT NOT NULL,
    updated BIGINT NOT NULL,
    description TEXT NOT NULL DEFAULT '',
    description_lc TEXT NOT NULL DEFAULT ''
);
