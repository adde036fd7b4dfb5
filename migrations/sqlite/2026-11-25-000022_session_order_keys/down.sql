DROP TRIGGER ixp_sessions_order_keys_on_insert;
DROP TRIGGER ixp_sessions_order_keys_on_update;
DROP TRIGGER direct_sessions_order_keys_on_insert;
DROP TRIGGER direct_sessions_order_keys_on_update;
DROP TRIGGER autonomous_systems_order_keys;
DROP TRIGGER internet_exchanges_order_keys;
DROP TRIGGER routers_order_keys;
DROP TRIGGER routers_deleted_order_keys;
DROP TRIGGER connections_inserted_order_keys;
DROP TRIGGER connections_moved_order_keys;
DROP TRIGGER connections_rank_order_keys;
DROP VIEW connection_order_ranks;
DROP INDEX ixp_sessions_default_order;
DROP INDEX direct_sessions_default_order;
ALTER TABLE connections DROP COLUMN order_rank;
ALTER TABLE internet_exchange_peering_sessions DROP COLUMN peer_asn;
ALTER TABLE internet_exchange_peering_sessions DROP COLUMN connection_rank;
ALTER TABLE direct_peering_sessions DROP COLUMN local_asn;
ALTER TABLE direct_peering_sessions DROP COLUMN peer_asn;
CREATE INDEX ixp_sessions_default_order ON internet_exchange_peering_sessions
    ((service_reference IS NULL), service_reference, autonomous_system_id, ixp_connection_id,
     ip_address_key, id);
CREATE INDEX direct_sessions_default_order ON direct_peering_sessions
    ((service_reference IS NULL), service_reference, local_autonomous_system_id,
     autonomous_system_id, ip_address_key, id);
