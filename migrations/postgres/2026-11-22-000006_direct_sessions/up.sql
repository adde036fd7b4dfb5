-- Direct BGP peering sessions, with their policies and communities.
CREATE TABLE direct_peering_sessions (
    id BIGSERIAL PRIMARY KEY,
    service_reference TEXT UNIQUE,
    service_reference_lc TEXT,
    local_autonomous_system_id BIGINT NOT NULL REFERENCES autonomous_systems (id) ON DELETE CASCADE,
    local_ip_address TEXT,
    local_ip_address_key TEXT,
    autonomous_system_id BIGINT NOT NULL REFERENCES autonomous_systems (id) ON DELETE CASCADE,
    bgp_group_id BIGINT REFERENCES bgp_groups (id) ON DELETE SET NULL,
    ip_address TEXT NOT NULL,
    ip_address_key TEXT NOT NULL,
    status TEXT NOT NULL DEFAULT 'enabled',
    relationship_id BIGINT NOT NULL REFERENCES relationships (id) ON DELETE RESTRICT,
    password TEXT,
    encrypted_password TEXT,
    multihop_ttl BIGINT NOT NULL DEFAULT 1,
    passive BOOLEAN NOT NULL DEFAULT FALSE,
    router_id BIGINT REFERENCES routers (id) ON DELETE SET NULL,
    local_context_data TEXT,
    bgp_state TEXT,
    received_prefix_count BIGINT NOT NULL DEFAULT 0,
    accepted_prefix_count BIGINT NOT NULL DEFAULT 0,
    advertised_prefix_count BIGINT NOT NULL DEFAULT 0,
    last_established_state BIGINT,
    comments TEXT NOT NULL DEFAULT '',
    created BIGINT NOT NULL,
    updated BIGINT NOT NULL
);
CREATE INDEX direct_sessions_local_autonomous_system ON direct_peering_sessions (local_autonomous_system_id);
CREATE INDEX direct_sessions_autonomous_system ON direct_peering_sessions (autonomous_system_id);
CREATE INDEX direct_sessions_bgp_group ON direct_peering_sessions (bgp_group_id);
CREATE INDEX direct_sessions_relationship ON direct_peering_sessions (relationship_id);
CREATE INDEX direct_sessions_router ON direct_peering_sessions (router_id);
CREATE INDEX direct_sessions_ip_address ON direct_peering_sessions (ip_address_key);

CREATE TABLE direct_session_import_routing_policies (
    id BIGSERIAL PRIMARY KEY,
    session_id BIGINT NOT NULL REFERENCES direct_peering_sessions (id) ON DELETE CASCADE,
    routing_policy_id BIGINT NOT NULL REFERENCES routing_policies (id) ON DELETE CASCADE,
    UNIQUE (session_id, routing_policy_id)
);
CREATE INDEX direct_session_import_policies_policy ON direct_session_import_routing_policies (routing_policy_id);

CREATE TABLE direct_session_export_routing_policies (
    id BIGSERIAL PRIMARY KEY,
    session_id BIGINT NOT NULL REFERENCES direct_peering_sessions (id) ON DELETE CASCADE,
    routing_policy_id BIGINT NOT NULL REFERENCES routing_policies (id) ON DELETE CASCADE,
    UNIQUE (session_id, routing_policy_id)
);
CREATE INDEX direct_session_export_policies_policy ON direct_session_export_routing_policies (routing_policy_id);

CREATE TABLE direct_session_communities (
    id BIGSERIAL PRIMARY KEY,
    session_id BIGINT NOT NULL REFERENCES direct_peering_sessions (id) ON DELETE CASCADE,
    community_id BIGINT NOT NULL REFERENCES communities (id) ON DELETE CASCADE,
    UNIQUE (session_id, community_id)
);
CREATE INDEX direct_session_communities_community ON direct_session_communities (community_id);
