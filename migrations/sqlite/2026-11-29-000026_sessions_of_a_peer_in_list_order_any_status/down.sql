DROP INDEX direct_sessions_peer_order;
DROP INDEX ixp_sessions_peer_order;
CREATE INDEX ixp_sessions_peer_status_address ON internet_exchange_peering_sessions
    (autonomous_system_id, status, ip_address_key, ip_address);
CREATE INDEX direct_sessions_peer_status_address ON direct_peering_sessions
    (autonomous_system_id, status, ip_address_key, ip_address);
