DROP INDEX internet_exchanges_ixapi_endpoint;
ALTER TABLE internet_exchanges DROP COLUMN ixapi_endpoint_id;
