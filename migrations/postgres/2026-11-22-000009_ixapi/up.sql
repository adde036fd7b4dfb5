-- IX-API accounts.
CREATE TABLE ixapi_accounts (
    id BIGSERIAL PRIMARY KEY,
    name TEXT NOT NULL,
    name_lc TEXT NOT NULL,
    url TEXT NOT NULL,
    api_key TEXT NOT NULL,
    api_secret TEXT NOT NULL,
    identity TEXT NOT NULL,
    created BIGINT NOT NULL,
    updated BIGINT NOT NULL,
    UNIQUE (url, api_key)
);
