-- The local copy of PeeringDB. Ids are PeeringDB's own. Only the primary keys are
-- unique: PeeringDB's other unique values (names, ASNs) may pass through a state
-- where two objects share one during an incremental synchronisation.
-- A synchronisation writes parents before children; deleting an object takes its
-- children with it, as PeeringDB's own deletions do.
CREATE TABLE peeringdb_organizations (
    id INTEGER PRIMARY KEY,
    address1 TEXT NOT NULL DEFAULT '',
    address2 TEXT NOT NULL DEFAULT '',
    city TEXT NOT NULL DEFAULT '',
    state TEXT NOT NULL DEFAULT '',
    zipcode TEXT NOT NULL DEFAULT '',
    country TEXT NOT NULL DEFAULT '',
    latitude TEXT,
    longitude TEXT,
    suite TEXT NOT NULL DEFAULT '',
    floor TEXT NOT NULL DEFAULT '',
    name TEXT NOT NULL DEFAULT '',
    name_lc TEXT NOT NULL DEFAULT '',
    name_long TEXT NOT NULL DEFAULT '',
    aka TEXT NOT NULL DEFAULT '',
    website TEXT NOT NULL DEFAULT '',
    notes TEXT NOT NULL DEFAULT '',
    social_media TEXT
);
CREATE INDEX peeringdb_organizations_name_lc ON peeringdb_organizations (name_lc);
CREATE TABLE peeringdb_campuses (
    id INTEGER PRIMARY KEY,
    name TEXT NOT NULL DEFAULT '',
    name_lc TEXT NOT NULL DEFAULT '',
    name_long TEXT,
    aka TEXT,
    website TEXT,
    social_media TEXT,
    notes TEXT NOT NULL DEFAULT '',
    org_id BIGINT NOT NULL REFERENCES peeringdb_organizations (id) ON DELETE CASCADE
);
CREATE INDEX peeringdb_campuses_org_id ON peeringdb_campuses (org_id);
CREATE INDEX peeringdb_campuses_name_lc ON peeringdb_campuses (name_lc);
CREATE TABLE peeringdb_facilities (
    id INTEGER PRIMARY KEY,
    address1 TEXT NOT NULL DEFAULT '',
    address2 TEXT NOT NULL DEFAULT '',
    city TEXT NOT NULL DEFAULT '',
    state TEXT NOT NULL DEFAULT '',
    zipcode TEXT NOT NULL DEFAULT '',
    country TEXT NOT NULL DEFAULT '',
    latitude TEXT,
    longitude TEXT,
    suite TEXT NOT NULL DEFAULT '',
    floor TEXT NOT NULL DEFAULT '',
    name TEXT NOT NULL DEFAULT '',
    name_lc TEXT NOT NULL DEFAULT '',
    name_long TEXT NOT NULL DEFAULT '',
    aka TEXT NOT NULL DEFAULT '',
    website TEXT NOT NULL DEFAULT '',
    clli TEXT NOT NULL DEFAULT '',
    rencode TEXT NOT NULL DEFAULT '',
    npanxx TEXT NOT NULL DEFAULT '',
    tech_email TEXT NOT NULL DEFAULT '',
    tech_phone TEXT NOT NULL DEFAULT '',
    sales_email TEXT NOT NULL DEFAULT '',
    sales_phone TEXT NOT NULL DEFAULT '',
    property TEXT,
    diverse_serving_substations BOOLEAN,
    available_voltage_services TEXT,
    notes TEXT NOT NULL DEFAULT '',
    social_media TEXT,
    region_continent TEXT,
    status_dashboard TEXT,
    org_id BIGINT NOT NULL REFERENCES peeringdb_organizations (id) ON DELETE CASCADE,
    campus_id BIGINT REFERENCES peeringdb_campuses (id) ON DELETE SET NULL
);
CREATE INDEX peeringdb_facilities_org_id ON peeringdb_facilities (org_id);
CREATE INDEX peeringdb_facilities_campus_id ON peeringdb_facilities (campus_id);
CREATE INDEX peeringdb_facilities_name_lc ON peeringdb_facilities (name_lc);
CREATE TABLE peeringdb_networks (
    id INTEGER PRIMARY KEY,
    asn BIGINT NOT NULL,
    name TEXT NOT NULL DEFAULT '',
    name_lc TEXT NOT NULL DEFAULT '',
    name_long TEXT NOT NULL DEFAULT '',
    aka TEXT NOT NULL DEFAULT '',
    irr_as_set TEXT NOT NULL DEFAULT '',
    website TEXT NOT NULL DEFAULT '',
    looking_glass TEXT NOT NULL DEFAULT '',
    route_server TEXT NOT NULL DEFAULT '',
    notes TEXT NOT NULL DEFAULT '',
    notes_private TEXT NOT NULL DEFAULT '',
    info_traffic TEXT NOT NULL DEFAULT '',
    info_ratio TEXT NOT NULL DEFAULT '',
    info_scope TEXT NOT NULL DEFAULT '',
    info_type TEXT NOT NULL DEFAULT '',
    info_types TEXT,
    info_prefixes4 BIGINT,
    info_prefixes6 BIGINT,
    info_unicast BOOLEAN NOT NULL DEFAULT FALSE,
    info_multicast BOOLEAN NOT NULL DEFAULT FALSE,
    info_ipv6 BOOLEAN NOT NULL DEFAULT FALSE,
    info_never_via_route_servers BOOLEAN NOT NULL DEFAULT FALSE,
    policy_url TEXT NOT NULL DEFAULT '',
    policy_general TEXT NOT NULL DEFAULT '',
    policy_locations TEXT NOT NULL DEFAULT '',
    policy_ratio BOOLEAN NOT NULL DEFAULT FALSE,
    policy_contracts TEXT NOT NULL DEFAULT '',
    social_media TEXT,
    status_dashboard TEXT,
    rir_status TEXT,
    rir_status_updated BIGINT,
    org_id BIGINT NOT NULL REFERENCES peeringdb_organizations (id) ON DELETE CASCADE
);
CREATE INDEX peeringdb_networks_org_id ON peeringdb_networks (org_id);
CREATE INDEX peeringdb_networks_asn ON peeringdb_networks (asn);
CREATE INDEX peeringdb_networks_name_lc ON peeringdb_networks (name_lc);
CREATE TABLE peeringdb_internet_exchanges (
    id INTEGER PRIMARY KEY,
    name TEXT NOT NULL DEFAULT '',
    name_lc TEXT NOT NULL DEFAULT '',
    name_long TEXT NOT NULL DEFAULT '',
    aka TEXT NOT NULL DEFAULT '',
    city TEXT NOT NULL DEFAULT '',
    country TEXT NOT NULL DEFAULT '',
    notes TEXT NOT NULL DEFAULT '',
    region_continent TEXT NOT NULL DEFAULT '',
    media TEXT NOT NULL DEFAULT '',
    proto_unicast BOOLEAN NOT NULL DEFAULT FALSE,
    proto_multicast BOOLEAN NOT NULL DEFAULT FALSE,
    proto_ipv6 BOOLEAN NOT NULL DEFAULT FALSE,
    website TEXT NOT NULL DEFAULT '',
    url_stats TEXT NOT NULL DEFAULT '',
    tech_email TEXT NOT NULL DEFAULT '',
    tech_phone TEXT NOT NULL DEFAULT '',
    policy_email TEXT NOT NULL DEFAULT '',
    policy_phone TEXT NOT NULL DEFAULT '',
    sales_email TEXT NOT NULL DEFAULT '',
    sales_phone TEXT NOT NULL DEFAULT '',
    ixf_net_count BIGINT NOT NULL DEFAULT 0,
    ixf_last_import BIGINT,
    service_level TEXT NOT NULL DEFAULT '',
    terms TEXT NOT NULL DEFAULT '',
    social_media TEXT,
    status_dashboard TEXT,
    org_id BIGINT NOT NULL REFERENCES peeringdb_organizations (id) ON DELETE CASCADE
);
CREATE INDEX peeringdb_internet_exchanges_org_id ON peeringdb_internet_exchanges (org_id);
CREATE INDEX peeringdb_internet_exchanges_name_lc ON peeringdb_internet_exchanges (name_lc);
CREATE TABLE peeringdb_internet_exchange_facilities (
    id INTEGER PRIMARY KEY,
    ix_id BIGINT NOT NULL REFERENCES peeringdb_internet_exchanges (id) ON DELETE CASCADE,
    fac_id BIGINT NOT NULL REFERENCES peeringdb_facilities (id) ON DELETE CASCADE
);
CREATE INDEX peeringdb_internet_exchange_facilities_ix_id ON peeringdb_internet_exchange_facilities (ix_id);
CREATE INDEX peeringdb_internet_exchange_facilities_fac_id ON peeringdb_internet_exchange_facilities (fac_id);
CREATE TABLE peeringdb_ixlans (
    id INTEGER PRIMARY KEY,
    name TEXT NOT NULL DEFAULT '',
    descr TEXT NOT NULL DEFAULT '',
    mtu BIGINT,
    vlan BIGINT,
    dot1q_support BOOLEAN NOT NULL DEFAULT FALSE,
    rs_asn BIGINT DEFAULT 0,
    arp_sponge TEXT,
    ixf_ixp_member_list_url TEXT,
    ixf_ixp_member_list_url_visible TEXT NOT NULL DEFAULT 'Private',
    ix_id BIGINT NOT NULL REFERENCES peeringdb_internet_exchanges (id) ON DELETE CASCADE
);
CREATE INDEX peeringdb_ixlans_ix_id ON peeringdb_ixlans (ix_id);
CREATE TABLE peeringdb_ixlan_prefixes (
    id INTEGER PRIMARY KEY,
    notes TEXT NOT NULL DEFAULT '',
    protocol TEXT NOT NULL DEFAULT '',
    prefix TEXT NOT NULL,
    prefix_key TEXT,
    in_dfz BOOLEAN NOT NULL DEFAULT FALSE,
    ixlan_id BIGINT NOT NULL REFERENCES peeringdb_ixlans (id) ON DELETE CASCADE
);
CREATE INDEX peeringdb_ixlan_prefixes_ixlan_id ON peeringdb_ixlan_prefixes (ixlan_id);
CREATE INDEX peeringdb_ixlan_prefixes_prefix_key ON peeringdb_ixlan_prefixes (prefix_key);
CREATE TABLE peeringdb_network_facilities (
    id INTEGER PRIMARY KEY,
    local_asn BIGINT,
    avail_sonet BOOLEAN NOT NULL DEFAULT FALSE,
    avail_ethernet BOOLEAN NOT NULL DEFAULT FALSE,
    avail_atm BOOLEAN NOT NULL DEFAULT FALSE,
    net_id BIGINT NOT NULL REFERENCES peeringdb_networks (id) ON DELETE CASCADE,
    fac_id BIGINT NOT NULL REFERENCES peeringdb_facilities (id) ON DELETE CASCADE
);
CREATE INDEX peeringdb_network_facilities_net_id ON peeringdb_network_facilities (net_id);
CREATE INDEX peeringdb_network_facilities_fac_id ON peeringdb_network_facilities (fac_id);
CREATE TABLE peeringdb_network_ixlans (
    id INTEGER PRIMARY KEY,
    asn BIGINT NOT NULL,
    ipaddr4 TEXT,
    ipaddr4_key TEXT,
    ipaddr6 TEXT,
    ipaddr6_key TEXT,
    is_rs_peer BOOLEAN NOT NULL DEFAULT FALSE,
    notes TEXT NOT NULL DEFAULT '',
    speed BIGINT NOT NULL DEFAULT 0,
    operational BOOLEAN NOT NULL DEFAULT TRUE,
    net_id BIGINT NOT NULL REFERENCES peeringdb_networks (id) ON DELETE CASCADE,
    ixlan_id BIGINT NOT NULL REFERENCES peeringdb_ixlans (id) ON DELETE CASCADE
);
CREATE INDEX peeringdb_network_ixlans_net_id ON peeringdb_network_ixlans (net_id);
CREATE INDEX peeringdb_network_ixlans_ixlan_id ON peeringdb_network_ixlans (ixlan_id);
CREATE INDEX peeringdb_network_ixlans_asn ON peeringdb_network_ixlans (asn);
CREATE INDEX peeringdb_network_ixlans_ipaddr4_key ON peeringdb_network_ixlans (ipaddr4_key);
CREATE INDEX peeringdb_network_ixlans_ipaddr6_key ON peeringdb_network_ixlans (ipaddr6_key);
CREATE TABLE peeringdb_network_contacts (
    id INTEGER PRIMARY KEY,
    role TEXT NOT NULL DEFAULT '',
    visible TEXT NOT NULL DEFAULT 'Public',
    name TEXT NOT NULL DEFAULT '',
    name_lc TEXT NOT NULL DEFAULT '',
    phone TEXT NOT NULL DEFAULT '',
    email TEXT NOT NULL DEFAULT '',
    email_lc TEXT NOT NULL DEFAULT '',
    url TEXT NOT NULL DEFAULT '',
    net_id BIGINT NOT NULL REFERENCES peeringdb_networks (id) ON DELETE CASCADE
);
CREATE INDEX peeringdb_network_contacts_net_id ON peeringdb_network_contacts (net_id);
-- One row per synchronisation that changed something, as the reference records them.
CREATE TABLE peeringdb_synchronisations (
    id INTEGER PRIMARY KEY AUTOINCREMENT,
    time BIGINT NOT NULL,
    created BIGINT NOT NULL,
    updated BIGINT NOT NULL,
    deleted BIGINT NOT NULL
);
CREATE INDEX peeringdb_synchronisations_time ON peeringdb_synchronisations (time);
