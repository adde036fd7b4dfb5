-- Change records no longer keep secrets (session and NAPALM passwords, webhook secrets,
-- IX-API keys): those written before are replaced by the mark new records carry.

UPDATE object_changes SET
    prechange_data = CASE WHEN prechange_data IS NULL THEN NULL ELSE json_set(prechange_data,
        '$.password', CASE WHEN coalesce(json_extract(prechange_data, '$.password'), '') = '' THEN json_extract(prechange_data, '$.password') ELSE '********' END,
        '$.encrypted_password', CASE WHEN coalesce(json_extract(prechange_data, '$.encrypted_password'), '') = '' THEN json_extract(prechange_data, '$.encrypted_password') ELSE '********' END) END,
    postchange_data = CASE WHEN postchange_data IS NULL THEN NULL ELSE json_set(postchange_data,
        '$.password', CASE WHEN coalesce(json_extract(postchange_data, '$.password'), '') = '' THEN json_extract(postchange_data, '$.password') ELSE '********' END,
        '$.encrypted_password', CASE WHEN coalesce(json_extract(postchange_data, '$.encrypted_password'), '') = '' THEN json_extract(postchange_data, '$.encrypted_password') ELSE '********' END) END
WHERE changed_object_type = 'peering.internetexchangepeeringsession';

UPDATE object_changes SET
    prechange_data = CASE WHEN prechange_data IS NULL THEN NULL ELSE json_set(prechange_data,
        '$.password', CASE WHEN coalesce(json_extract(prechange_data, '$.password'), '') = '' THEN json_extract(prechange_data, '$.password') ELSE '********' END,
        '$.encrypted_password', CASE WHEN coalesce(json_extract(prechange_data, '$.encrypted_password'), '') = '' THEN json_extract(prechange_data, '$.encrypted_password') ELSE '********' END) END,
    postchange_data = CASE WHEN postchange_data IS NULL THEN NULL ELSE json_set(postchange_data,
        '$.password', CASE WHEN coalesce(json_extract(postchange_data, '$.password'), '') = '' THEN json_extract(postchange_data, '$.password') ELSE '********' END,
        '$.encrypted_password', CASE WHEN coalesce(json_extract(postchange_data, '$.encrypted_password'), '') = '' THEN json_extract(postchange_data, '$.encrypted_password') ELSE '********' END) END
WHERE changed_object_type = 'peering.directpeeringsession';

UPDATE object_changes SET
    prechange_data = CASE WHEN prechange_data IS NULL THEN NULL ELSE json_set(prechange_data,
        '$.napalm_password', CASE WHEN coalesce(json_extract(prechange_data, '$.napalm_password'), '') = '' THEN json_extract(prechange_data, '$.napalm_password') ELSE '********' END) END,
    postchange_data = CASE WHEN postchange_data IS NULL THEN NULL ELSE json_set(postchange_data,
        '$.napalm_password', CASE WHEN coalesce(json_extract(postchange_data, '$.napalm_password'), '') = '' THEN json_extract(postchange_data, '$.napalm_password') ELSE '********' END) END
WHERE changed_object_type = 'peering.router';

UPDATE object_changes SET
    prechange_data = CASE WHEN prechange_data IS NULL THEN NULL ELSE json_set(prechange_data,
        '$.secret', CASE WHEN coalesce(json_extract(prechange_data, '$.secret'), '') = '' THEN json_extract(prechange_data, '$.secret') ELSE '********' END) END,
    postchange_data = CASE WHEN postchange_data IS NULL THEN NULL ELSE json_set(postchange_data,
        '$.secret', CASE WHEN coalesce(json_extract(postchange_data, '$.secret'), '') = '' THEN json_extract(postchange_data, '$.secret') ELSE '********' END) END
WHERE changed_object_type = 'extras.webhook';

UPDATE object_changes SET
    prechange_data = CASE WHEN prechange_data IS NULL THEN NULL ELSE json_set(prechange_data,
        '$.api_key', CASE WHEN coalesce(json_extract(prechange_data, '$.api_key'), '') = '' THEN json_extract(prechange_data, '$.api_key') ELSE '********' END,
        '$.api_secret', CASE WHEN coalesce(json_extract(prechange_data, '$.api_secret'), '') = '' THEN json_extract(prechange_data, '$.api_secret') ELSE '********' END) END,
    postchange_data = CASE WHEN postchange_data IS NULL THEN NULL ELSE json_set(postchange_data,
        '$.api_key', CASE WHEN coalesce(json_extract(postchange_data, '$.api_key'), '') = '' THEN json_extract(postchange_data, '$.api_key') ELSE '********' END,
        '$.api_secret', CASE WHEN coalesce(json_extract(postchange_data, '$.api_secret'), '') = '' THEN json_extract(postchange_data, '$.api_secret') ELSE '********' END) END
WHERE changed_object_type = 'extras.ixapi';
