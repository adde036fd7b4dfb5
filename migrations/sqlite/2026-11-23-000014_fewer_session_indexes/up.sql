-- A peer's sessions are found through the indexes of migration 11, whose first column is the
-- peer (`*_peer_status_address`); the single-column indexes on the peer answered nothing
-- those do not, and cost every write of a session an index entry.
DROP INDEX ixp_sessions_autonomous_system;
DROP INDEX direct_sessions_autonomous_system;
