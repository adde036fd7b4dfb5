-- The reference's 1.10 hidden peers (its peeringdb migrations 0032 and 0033): a PeeringDB
-- network left out of the available peers on one PeeringDB LAN, for good or until a time.
-- The links are cleared when PeeringDB drops their object; the ids kept beside them link
-- them again when it lists the object anew.
CREATE TABLE peeringdb_hidden_peers (
    id INTEGER PRIMARY KEY AUTOINCREMENT,
    extdb_network_id BIGINT REFERENCES peeringdb_networks (id) ON DELETE SET NULL,
    extdb_ixlan_id BIGINT REFERENCES peeringdb_ixlans (id) ON DELETE SET NULL,
    extdb_network_id_copy BIGINT,
    extdb_ixlan_id_copy BIGINT,
    until BIGINT,
    comments TEXT NOT NULL DEFAULT '',
    created BIGINT NOT NULL,
    updated BIGINT NOT NULL,
    UNIQUE (extdb_network_id_copy, extdb_ixlan_id_copy)
);
CREATE INDEX peeringdb_hidden_peers_network ON peeringdb_hidden_peers (extdb_network_id);
CREATE INDEX peeringdb_hidden_peers_ixlan ON peeringdb_hidden_peers (extdb_ixlan_id);
