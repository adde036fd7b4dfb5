-- The tables whose rows are edited in place keep a tenth of each page free, so that an
-- edit that changes no indexed column (comments, passwords, prefixes, most of a PATCH) is
-- written beside the old row, on its page, with no new entry in any index ("HOT"). On a
-- full page the new row goes elsewhere and every index of the table gets an entry for it,
-- and the old entries are dead ones that a vacuum must find by reading each index whole:
-- on a million sessions, nine indexes and 60,000 pages, a vacuum pass of 1.6 to 2.4 s
-- every minute or so under 20 edits a second. The rows written from now on get the room;
-- rows already there move as they are edited (a table is never rewritten here, which would
-- lock it out for as long).
ALTER TABLE autonomous_systems SET (fillfactor = 90);
ALTER TABLE internet_exchange_peering_sessions SET (fillfactor = 90);
ALTER TABLE direct_peering_sessions SET (fillfactor = 90);
ALTER TABLE connections SET (fillfactor = 90);
ALTER TABLE internet_exchanges SET (fillfactor = 90);
ALTER TABLE routers SET (fillfactor = 90);
ALTER TABLE bgp_groups SET (fillfactor = 90);
