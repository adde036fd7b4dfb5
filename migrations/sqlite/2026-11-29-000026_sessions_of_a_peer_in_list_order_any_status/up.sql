-- A peer's sessions of any status in the lists' default order, so that a page of them
-- (`?autonomous_system_id=`, automation pulling a network's sessions) is read in order and
-- stops at its limit instead of sorting every session the peer has. It takes the place of
-- migration 11's (peer, status, address) index: one peer's sessions of one status are
-- found, ordered and counted by migration 25's index, and no default order is by
-- address; so a session write keeps as many index entries as before.
-- The expressions are the ones the store's ORDER BY writes (list_plans.rs checks).
DROP INDEX ixp_sessions_peer_status_address;
DROP INDEX direct_sessions_peer_status_address;
CREATE INDEX ixp_sessions_peer_order ON internet_exchange_peering_sessions
    (autonomous_system_id, (service_reference IS NULL), service_reference, peer_asn,
     connection_rank, ip_address_key, id);
CREATE INDEX direct_sessions_peer_order ON direct_peering_sessions
    (autonomous_system_id, (service_reference IS NULL), service_reference, local_asn,
     peer_asn, ip_address_key, id);
