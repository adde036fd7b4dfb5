-- The IX-API endpoint that manages an exchange (the reference's ixapi_endpoint).
ALTER TABLE internet_exchanges ADD COLUMN ixapi_endpoint_id BIGINT REFERENCES ixapi_accounts (id) ON DELETE SET NULL;
CREATE INDEX internet_exchanges_ixapi_endpoint ON internet_exchanges (ixapi_endpoint_id);
