DROP TABLE ixapi_accounts;
