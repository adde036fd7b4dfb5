-- One peer's sessions of one status in the lists' default order, so that a
-- page of them is read in order and stops at its limit, instead of sorting every session
-- the peer has (measured: a big peer's pages at random offsets, 1,222 to 2,633 a second on
-- the medium data). The count still reads each of the peer's entries of that status. The
-- expressions are the ones the store's ORDER BY writes (list_plans.rs checks they match).
CREATE INDEX ixp_sessions_peer_status_order ON internet_exchange_peering_sessions
    (autonomous_system_id, status, (service_reference IS NULL), service_reference, peer_asn,
     connection_rank, ip_address_key, id);
CREATE INDEX direct_sessions_peer_status_order ON direct_peering_sessions
    (autonomous_system_id, status, (service_reference IS NULL), service_reference, local_asn,
     peer_asn, ip_address_key, id);
