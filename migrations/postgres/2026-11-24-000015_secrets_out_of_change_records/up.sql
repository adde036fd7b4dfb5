-- Change records no longer keep secrets (session and NAPALM passwords, webhook secrets,
-- IX-API keys): those written before are replaced by the mark new records carry.

CREATE FUNCTION pg_temp.without_secrets(doc TEXT, secret_keys TEXT[]) RETURNS TEXT
LANGUAGE SQL IMMUTABLE AS $$
    SELECT CASE WHEN doc IS NULL THEN NULL ELSE (
        SELECT jsonb_object_agg(key, CASE
            WHEN key = ANY(secret_keys) AND jsonb_typeof(value) = 'string'
                AND value <> to_jsonb(''::TEXT) THEN to_jsonb('********'::TEXT)
            ELSE value END)::TEXT
        FROM jsonb_each(doc::jsonb)) END
$$;

-- Only the records that hold a secret are rewritten (jsonb orders the keys anew).
CREATE FUNCTION pg_temp.holds_secrets(doc TEXT, secret_keys TEXT[]) RETURNS BOOLEAN
LANGUAGE SQL IMMUTABLE AS $$
    SELECT doc IS NOT NULL AND EXISTS (
        SELECT 1 FROM jsonb_each(doc::jsonb)
        WHERE key = ANY(secret_keys) AND jsonb_typeof(value) = 'string'
            AND value <> to_jsonb(''::TEXT))
$$;

UPDATE object_changes SET
    prechange_data = pg_temp.without_secrets(prechange_data, ARRAY['password', 'encrypted_password']),
    postchange_data = pg_temp.without_secrets(postchange_data, ARRAY['password', 'encrypted_password'])
WHERE changed_object_type = 'peering.internetexchangepeeringsession'
    AND (pg_temp.holds_secrets(prechange_data, ARRAY['password', 'encrypted_password'])
        OR pg_temp.holds_secrets(postchange_data, ARRAY['password', 'encrypted_password']));


UPDATE object_changes SET
    prechange_data = pg_temp.without_secrets(prechange_data, ARRAY['password', 'encrypted_password']),
    postchange_data = pg_temp.without_secrets(postchange_data, ARRAY['password', 'encrypted_password'])
WHERE changed_object_type = 'peering.directpeeringsession'
    AND (pg_temp.holds_secrets(prechange_data, ARRAY['password', 'encrypted_password'])
        OR pg_temp.holds_secrets(postchange_data, ARRAY['password', 'encrypted_password']));


UPDATE object_changes SET
    prechange_data = pg_temp.without_secrets(prechange_data, ARRAY['napalm_password']),
    postchange_data = pg_temp.without_secrets(postchange_data, ARRAY['napalm_password'])
WHERE changed_object_type = 'peering.router'
    AND (pg_temp.holds_secrets(prechange_data, ARRAY['napalm_password'])
        OR pg_temp.holds_secrets(postchange_data, ARRAY['napalm_password']));


UPDATE object_changes SET
    prechange_data = pg_temp.without_secrets(prechange_data, ARRAY['secret']),
    postchange_data = pg_temp.without_secrets(postchange_data, ARRAY['secret'])
WHERE changed_object_type = 'extras.webhook'
    AND (pg_temp.holds_secrets(prechange_data, ARRAY['secret'])
        OR pg_temp.holds_secrets(postchange_data, ARRAY['secret']));


UPDATE object_changes SET
    prechange_data = pg_temp.without_secrets(prechange_data, ARRAY['api_key', 'api_secret']),
    postchange_data = pg_temp.without_secrets(postchange_data, ARRAY['api_key', 'api_secret'])
WHERE changed_object_type = 'extras.ixapi'
    AND (pg_temp.holds_secrets(prechange_data, ARRAY['api_key', 'api_secret'])
        OR pg_temp.holds_secrets(postchange_data, ARRAY['api_key', 'api_secret']));
