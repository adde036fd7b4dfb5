DROP INDEX direct_sessions_bfd;
DROP INDEX ixp_sessions_bfd;
ALTER TABLE direct_peering_sessions DROP COLUMN bfd_id;
ALTER TABLE internet_exchange_peering_sessions DROP COLUMN bfd_id;
DROP TABLE bfd;
