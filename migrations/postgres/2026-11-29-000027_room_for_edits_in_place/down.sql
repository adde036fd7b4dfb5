ALTER TABLE autonomous_systems RESET (fillfactor);
ALTER TABLE internet_exchange_peering_sessions RESET (fillfactor);
ALTER TABLE direct_peering_sessions RESET (fillfactor);
ALTER TABLE connections RESET (fillfactor);
ALTER TABLE internet_exchanges RESET (fillfactor);
ALTER TABLE routers RESET (fillfactor);
ALTER TABLE bgp_groups RESET (fillfactor);
