-- Connections of routers to internet exchanges. Addresses are canonical text with a
-- sortable twin (`<column>_key`: family, then the address in hexadecimal, then the length).
CREATE TABLE connections (
    id INTEGER PRIMARY KEY AUTOINCREMENT,
    extdb_netixlan BIGINT,
    status TEXT NOT NULL DEFAULT 'enabled',
    vlan BIGINT,
    mac_address TEXT,
    ipv6_address TEXT,
    ipv6_address_key TEXT,
    ipv4_address TEXT,
    ipv4_address_key TEXT,
    internet_exchange_point_id BIGINT REFERENCES internet_exchanges (id) ON DELETE CASCADE,
    router_id BIGINT REFERENCES routers (id) ON DELETE SET NULL,
    interface TEXT NOT NULL DEFAULT '',
    interface_lc TEXT NOT NULL DEFAULT '',
    description TEXT NOT NULL DEFAULT '',
    description_lc TEXT NOT NULL DEFAULT '',
    local_context_data TEXT,
    comments TEXT NOT NULL DEFAULT '',
    created BIGINT NOT NULL,
    updated BIGINT NOT NULL
);
CREATE INDEX connections_internet_exchange_point ON connections (internet_exchange_point_id, router_id);
CREATE INDEX connections_router ON connections (router_id);
CREATE INDEX connections_ipv6_address ON connections (ipv6_address_key);
CREATE INDEX connections_ipv4_address ON connections (ipv4_address_key);
