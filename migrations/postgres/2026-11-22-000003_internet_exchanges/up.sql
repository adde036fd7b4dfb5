-- Internet exchange points and their routing policies and communities.
CREATE TABLE internet_exchanges (
    id BIGSERIAL PRIMARY KEY,
    name TEXT NOT NULL UNIQUE,
    name_lc TEXT NOT NULL,
    slug TEXT NOT NULL UNIQUE,
    slug_lc TEXT NOT NULL,
    description TEXT NOT NULL DEFAULT '',
    description_lc TEXT NOT NULL DEFAULT '',
    status TEXT NOT NULL DEFAULT 'enabled',
    extdb_ixlan BIGINT,
    extdb_prefixes TEXT,
    local_autonomous_system_id BIGINT NOT NULL REFERENCES autonomous_systems (id) ON DELETE CASCADE,
    local_context_data TEXT,
    created BIGINT NOT NULL,
    updated BIGINT NOT NULL
);
CREATE INDEX internet_exchanges_local_autonomous_system ON internet_exchanges (local_autonomous_system_id, name);

CREATE TABLE internet_exchange_import_routing_policies (
    id BIGSERIAL PRIMARY KEY,
    internet_exchange_id BIGINT NOT NULL REFERENCES internet_exchanges (id) ON DELETE CASCADE,
    routing_policy_id BIGINT NOT NULL REFERENCES routing_policies (id) ON DELETE CASCADE,
    UNIQUE (internet_exchange_id, routing_policy_id)
);
CREATE INDEX ix_import_policies_policy ON internet_exchange_import_routing_policies (routing_policy_id);

CREATE TABLE internet_exchange_export_routing_policies (
    id BIGSERIAL PRIMARY KEY,
    internet_exchange_id BIGINT NOT NULL REFERENCES internet_exchanges (id) ON DELETE CASCADE,
    routing_policy_id BIGINT NOT NULL REFERENCES routing_policies (id) ON DELETE CASCADE,
    UNIQUE (internet_exchange_id, routing_policy_id)
);
CREATE INDEX ix_export_policies_policy ON internet_exchange_export_routing_policies (routing_policy_id);

CREATE TABLE internet_exchange_communities (
    id BIGSERIAL PRIMARY KEY,
    internet_exchange_id BIGINT NOT NULL REFERENCES internet_exchanges (id) ON DELETE CASCADE,
    community_id BIGINT NOT NULL REFERENCES communities (id) ON DELETE CASCADE,
    UNIQUE (internet_exchange_id, community_id)
);
CREATE INDEX ix_communities_community ON internet_exchange_communities (community_id);
