-- Fields the reference's 1.10 serializers show: an autonomous system's AS list (what its
-- AS-SETs expand to, filled by IRR refreshes) and whether to retrieve it; the network
-- connection a direct session lives on; a router's communities; and, in the PeeringDB
-- copy, whether a connection to an exchange supports BFD and the facilities of its sides.
ALTER TABLE autonomous_systems ADD COLUMN as_list TEXT NOT NULL DEFAULT '[]';
ALTER TABLE autonomous_systems ADD COLUMN retrieve_as_list BOOLEAN NOT NULL DEFAULT TRUE;
ALTER TABLE direct_peering_sessions ADD COLUMN connection_id BIGINT REFERENCES connections (id) ON DELETE SET NULL;
CREATE INDEX direct_sessions_connection ON direct_peering_sessions (connection_id);
CREATE TABLE router_communities (
    id BIGSERIAL PRIMARY KEY,
    router_id BIGINT NOT NULL REFERENCES routers (id) ON DELETE CASCADE,
    community_id BIGINT NOT NULL REFERENCES communities (id) ON DELETE CASCADE,
    UNIQUE (router_id, community_id)
);
CREATE INDEX router_communities_community ON router_communities (community_id);
ALTER TABLE peeringdb_network_ixlans ADD COLUMN bfd_support BOOLEAN NOT NULL DEFAULT FALSE;
ALTER TABLE peeringdb_network_ixlans ADD COLUMN net_side_id BIGINT REFERENCES peeringdb_facilities (id) ON DELETE SET NULL;
ALTER TABLE peeringdb_network_ixlans ADD COLUMN ix_side_id BIGINT REFERENCES peeringdb_facilities (id) ON DELETE SET NULL;
CREATE INDEX peeringdb_network_ixlans_net_side_id ON peeringdb_network_ixlans (net_side_id);
CREATE INDEX peeringdb_network_ixlans_ix_side_id ON peeringdb_network_ixlans (ix_side_id);
