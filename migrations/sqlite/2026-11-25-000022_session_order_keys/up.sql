-- Sessions list in the reference's order, which Django expands through the related models'
-- own orderings: a session at an exchange by its peer (ASN) then its connection (exchange's
-- local ASN, name, slug, then router's local ASN and name), a direct session by its local
-- then its peer ASN. Sorting every session through those relations on each page would cost
-- a join per key and a full sort (37 ms instead of 0.7 ms for a deep page of 25,000), so the
-- keys are kept on the session rows, in the default-order index, and kept right by triggers:
-- a session's own keys when it is written, everyone's when an ASN, an exchange, a router or
-- a connection changes what they copy (rare, administrative writes).
ALTER TABLE connections ADD COLUMN order_rank BIGINT NOT NULL DEFAULT 0;
ALTER TABLE internet_exchange_peering_sessions ADD COLUMN peer_asn BIGINT NOT NULL DEFAULT 0;
ALTER TABLE internet_exchange_peering_sessions ADD COLUMN connection_rank BIGINT NOT NULL DEFAULT 0;
ALTER TABLE direct_peering_sessions ADD COLUMN local_asn BIGINT NOT NULL DEFAULT 0;
ALTER TABLE direct_peering_sessions ADD COLUMN peer_asn BIGINT NOT NULL DEFAULT 0;

-- Connections in their default order, nulls last (an ASN is unique: no need for `affiliated`).
CREATE VIEW connection_order_ranks AS
SELECT c.id AS id, DENSE_RANK() OVER (ORDER BY
    (xa.asn IS NULL), xa.asn, (x.name IS NULL), x.name, (x.slug IS NULL), x.slug,
    (ra.asn IS NULL), ra.asn, (r.name IS NULL), r.name) AS order_rank
FROM connections c
LEFT JOIN internet_exchanges x ON x.id = c.internet_exchange_point_id
LEFT JOIN autonomous_systems xa ON xa.id = x.local_autonomous_system_id
LEFT JOIN routers r ON r.id = c.router_id
LEFT JOIN autonomous_systems ra ON ra.id = r.local_autonomous_system_id;

UPDATE connections SET order_rank = k.order_rank FROM connection_order_ranks k
    WHERE k.id = connections.id;
UPDATE internet_exchange_peering_sessions SET
    peer_asn = (SELECT asn FROM autonomous_systems a WHERE a.id = autonomous_system_id),
    connection_rank = (SELECT order_rank FROM connections c WHERE c.id = ixp_connection_id);
UPDATE direct_peering_sessions SET
    local_asn = (SELECT asn FROM autonomous_systems a WHERE a.id = local_autonomous_system_id),
    peer_asn = (SELECT asn FROM autonomous_systems a WHERE a.id = autonomous_system_id);

-- A session's own keys.
CREATE TRIGGER ixp_sessions_order_keys_on_insert AFTER INSERT ON internet_exchange_peering_sessions
BEGIN
    UPDATE internet_exchange_peering_sessions SET
        peer_asn = (SELECT asn FROM autonomous_systems WHERE id = NEW.autonomous_system_id),
        connection_rank = (SELECT order_rank FROM connections WHERE id = NEW.ixp_connection_id)
    WHERE id = NEW.id;
END;
CREATE TRIGGER ixp_sessions_order_keys_on_update
AFTER UPDATE OF autonomous_system_id, ixp_connection_id ON internet_exchange_peering_sessions
WHEN OLD.autonomous_system_id <> NEW.autonomous_system_id OR OLD.ixp_connection_id <> NEW.ixp_connection_id
BEGIN
    UPDATE internet_exchange_peering_sessions SET
        peer_asn = (SELECT asn FROM autonomous_systems WHERE id = NEW.autonomous_system_id),
        connection_rank = (SELECT order_rank FROM connections WHERE id = NEW.ixp_connection_id)
    WHERE id = NEW.id;
END;
CREATE TRIGGER direct_sessions_order_keys_on_insert AFTER INSERT ON direct_peering_sessions
BEGIN
    UPDATE direct_peering_sessions SET
        local_asn = (SELECT asn FROM autonomous_systems WHERE id = NEW.local_autonomous_system_id),
        peer_asn = (SELECT asn FROM autonomous_systems WHERE id = NEW.autonomous_system_id)
    WHERE id = NEW.id;
END;
CREATE TRIGGER direct_sessions_order_keys_on_update
AFTER UPDATE OF local_autonomous_system_id, autonomous_system_id ON direct_peering_sessions
WHEN OLD.local_autonomous_system_id <> NEW.local_autonomous_system_id OR OLD.autonomous_system_id <> NEW.autonomous_system_id
BEGIN
    UPDATE direct_peering_sessions SET
        local_asn = (SELECT asn FROM autonomous_systems WHERE id = NEW.local_autonomous_system_id),
        peer_asn = (SELECT asn FROM autonomous_systems WHERE id = NEW.autonomous_system_id)
    WHERE id = NEW.id;
END;

-- What the keys copy. Connections are ranked again (a few hundred rows), then the sessions
-- whose connection's rank moved take the new one.
CREATE TRIGGER autonomous_systems_order_keys AFTER UPDATE OF asn ON autonomous_systems
WHEN OLD.asn <> NEW.asn
BEGIN
    UPDATE internet_exchange_peering_sessions SET peer_asn = NEW.asn WHERE autonomous_system_id = NEW.id;
    UPDATE direct_peering_sessions SET peer_asn = NEW.asn WHERE autonomous_system_id = NEW.id;
    UPDATE direct_peering_sessions SET local_asn = NEW.asn WHERE local_autonomous_system_id = NEW.id;
    UPDATE connections SET order_rank = k.order_rank FROM connection_order_ranks k
        WHERE k.id = connections.id AND connections.order_rank <> k.order_rank;
END;
CREATE TRIGGER internet_exchanges_order_keys
AFTER UPDATE OF name, slug, local_autonomous_system_id ON internet_exchanges
WHEN OLD.name <> NEW.name OR OLD.slug <> NEW.slug OR OLD.local_autonomous_system_id <> NEW.local_autonomous_system_id
BEGIN
    UPDATE connections SET order_rank = k.order_rank FROM connection_order_ranks k
        WHERE k.id = connections.id AND connections.order_rank <> k.order_rank;
END;
CREATE TRIGGER routers_order_keys AFTER UPDATE OF name, local_autonomous_system_id ON routers
WHEN OLD.name <> NEW.name OR OLD.local_autonomous_system_id IS NOT NEW.local_autonomous_system_id
BEGIN
    UPDATE connections SET order_rank = k.order_rank FROM connection_order_ranks k
        WHERE k.id = connections.id AND connections.order_rank <> k.order_rank;
END;
CREATE TRIGGER routers_deleted_order_keys AFTER DELETE ON routers
BEGIN
    UPDATE connections SET order_rank = k.order_rank FROM connection_order_ranks k
        WHERE k.id = connections.id AND connections.order_rank <> k.order_rank;
END;
CREATE TRIGGER connections_inserted_order_keys AFTER INSERT ON connections
BEGIN
    UPDATE connections SET order_rank = k.order_rank FROM connection_order_ranks k
        WHERE k.id = connections.id AND connections.order_rank <> k.order_rank;
END;
CREATE TRIGGER connections_moved_order_keys
AFTER UPDATE OF internet_exchange_point_id, router_id ON connections
WHEN OLD.internet_exchange_point_id IS NOT NEW.internet_exchange_point_id OR OLD.router_id IS NOT NEW.router_id
BEGIN
    UPDATE connections SET order_rank = k.order_rank FROM connection_order_ranks k
        WHERE k.id = connections.id AND connections.order_rank <> k.order_rank;
END;
-- Whenever a connection's rank moves, its sessions follow.
CREATE TRIGGER connections_rank_order_keys AFTER UPDATE OF order_rank ON connections
WHEN OLD.order_rank <> NEW.order_rank
BEGIN
    UPDATE internet_exchange_peering_sessions SET connection_rank = NEW.order_rank
        WHERE ixp_connection_id = NEW.id;
END;

DROP INDEX ixp_sessions_default_order;
DROP INDEX direct_sessions_default_order;
CREATE INDEX ixp_sessions_default_order ON internet_exchange_peering_sessions
    ((service_reference IS NULL), service_reference, peer_asn, connection_rank,
     ip_address_key, id);
CREATE INDEX direct_sessions_default_order ON direct_peering_sessions
    ((service_reference IS NULL), service_reference, local_asn, peer_asn, ip_address_key, id);
