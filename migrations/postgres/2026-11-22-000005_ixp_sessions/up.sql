-- BGP peering sessions at internet exchanges, with their policies and communities.
CREATE TABLE internet_exchange_peering_sessions (
    id BIGSERIAL PRIMARY KEY,
    service_reference TEXT UNIQUE,
    service_reference_lc TEXT,
    autonomous_system_id BIGINT NOT NULL REFERENCES autonomous_systems (id) ON DELETE CASCADE,
    ixp_connection_id BIGINT NOT NULL REFERENCES connections (id) ON DELETE CASCADE,
    ip_address TEXT NOT NULL,
    ip_address_key TEXT NOT NULL,
    status TEXT NOT NULL DEFAULT 'enabled',
    password TEXT,
    encrypted_password TEXT,
    multihop_ttl BIGINT NOT NULL DEFAULT 1,
    passive BOOLEAN NOT NULL DEFAULT FALSE,
    is_route_server BOOLEAN NOT NULL DEFAULT FALSE,
    local_context_data TEXT,
    exists_in_extdb BOOLEAN NOT NULL DEFAULT FALSE,
    is_abandoned BOOLEAN NOT NULL DEFAULT FALSE,
    bgp_state TEXT,
    received_prefix_count BIGINT NOT NULL DEFAULT 0,
    accepted_prefix_count BIGINT NOT NULL DEFAULT 0,
    advertised_prefix_count BIGINT NOT NULL DEFAULT 0,
    last_established_state BIGINT,
    comments TEXT NOT NULL DEFAULT '',
    created BIGINT NOT NULL,
    updated BIGINT NOT NULL,
    UNIQUE (ixp_connection_id, ip_address)
);
CREATE INDEX ixp_sessions_autonomous_system ON internet_exchange_peering_sessions (autonomous_system_id);
CREATE INDEX ixp_sessions_ip_address ON internet_exchange_peering_sessions (ip_address_key);
CREATE INDEX ixp_sessions_status ON internet_exchange_peering_sessions (status);

CREATE TABLE ixp_session_import_routing_policies (
    id BIGSERIAL PRIMARY KEY,
    session_id BIGINT NOT NULL REFERENCES internet_exchange_peering_sessions (id) ON DELETE CASCADE,
    routing_policy_id BIGINT NOT NULL REFERENCES routing_policies (id) ON DELETE CASCADE,
    UNIQUE (session_id, routing_policy_id)
);
CREATE INDEX ixp_session_import_policies_policy ON ixp_session_import_routing_policies (routing_policy_id);

CREATE TABLE ixp_session_export_routing_policies (
    id BIGSERIAL PRIMARY KEY,
    session_id BIGINT NOT NULL REFERENCES internet_exchange_peering_sessions (id) ON DELETE CASCADE,
    routing_policy_id BIGINT NOT NULL REFERENCES routing_policies (id) ON DELETE CASCADE,
    UNIQUE (session_id, routing_policy_id)
);
CREATE INDEX ixp_session_export_policies_policy ON ixp_session_export_routing_policies (routing_policy_id);

CREATE TABLE ixp_session_communities (
    id BIGSERIAL PRIMARY KEY,
    session_id BIGINT NOT NULL REFERENCES internet_exchange_peering_sessions (id) ON DELETE CASCADE,
    community_id BIGINT NOT NULL REFERENCES communities (id) ON DELETE CASCADE,
    UNIQUE (session_id, community_id)
);
CREATE INDEX ixp_session_communities_community ON ixp_session_communities (community_id);
