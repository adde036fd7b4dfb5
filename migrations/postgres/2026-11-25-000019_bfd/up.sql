-- BFD configurations (the reference's 1.9 `net.BFD`), and the sessions that use one.
CREATE TABLE bfd (
    id BIGSERIAL PRIMARY KEY,
    name TEXT NOT NULL UNIQUE,
    name_lc TEXT NOT NULL,
    slug TEXT NOT NULL UNIQUE,
    slug_lc TEXT NOT NULL,
    description TEXT NOT NULL DEFAULT '',
    description_lc TEXT NOT NULL DEFAULT '',
    minimum_transmit_interval BIGINT NOT NULL DEFAULT 300,
    minimum_receive_interval BIGINT NOT NULL DEFAULT 300,
    detection_multiplier BIGINT NOT NULL DEFAULT 3,
    hold_time BIGINT NOT NULL DEFAULT 0,
    local_context_data TEXT,
    created BIGINT NOT NULL,
    updated BIGINT NOT NULL
);
ALTER TABLE internet_exchange_peering_sessions ADD COLUMN bfd_id BIGINT REFERENCES bfd (id) ON DELETE SET NULL;
ALTER TABLE direct_peering_sessions ADD COLUMN bfd_id BIGINT REFERENCES bfd (id) ON DELETE SET NULL;
CREATE INDEX ixp_sessions_bfd ON internet_exchange_peering_sessions (bfd_id);
CREATE INDEX direct_sessions_bfd ON direct_peering_sessions (bfd_id);
