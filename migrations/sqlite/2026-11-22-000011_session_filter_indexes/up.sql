-- Sessions are most often listed for one peer, by status, in address order (automation
-- pulling a network's sessions): one index answers the filter, the order and the count
-- without reading the table (measured: 25 ms to 0.2 ms for a peer with 20,000 sessions).
CREATE INDEX ixp_sessions_peer_status_address ON internet_exchange_peering_sessions
    (autonomous_system_id, status, ip_address_key, ip_address);
CREATE INDEX direct_sessions_peer_status_address ON direct_peering_sessions
    (autonomous_system_id, status, ip_address_key, ip_address);
