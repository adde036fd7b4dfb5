-- Sessions are most often listed for one peer, by status, in address order (automation
-- pulling a network's sessions): one index answers the filter, the order and the count
-- without reading the table (measured: 25 ms to 0.2 ms for a peer with 20,000 sessions).
CREATE INDEX ixp_sessions_peer_status_address ON internet_exchange_peering_sessions
    (autonomous_system_id, status, ip_address_key, ip_address);
CREATE INDEX direct_sessions_peer_status_address ON direct_peering_sessions
    (autonomous_system_id, status, ip_address_key, ip_address);

-- The default order of session lists (service reference, nulls last, then peer, connection
-- or local AS, address), so that a page is read in order instead of sorting every session
-- (measured: 82 ms to 0.2 ms for the first 1,000 of 165,000 sessions). The expression is
-- the one the store's ORDER BY writes.
CREATE INDEX ixp_sessions_default_order ON internet_exchange_peering_sessions
    ((service_reference IS NULL), service_reference, autonomous_system_id, ixp_connection_id,
     ip_address_key, id);
CREATE INDEX direct_sessions_default_order ON direct_peering_sessions
    ((service_reference IS NULL), service_reference, local_autonomous_system_id,
     autonomous_system_id, ip_address_key, id);

-- The default order of autonomous systems (ASN, then affiliated), so that a deep page skips
-- its rows within the index (the store reads a deep page's ids first, then its rows).
CREATE INDEX autonomous_systems_default_order ON autonomous_systems (asn, affiliated, id);
