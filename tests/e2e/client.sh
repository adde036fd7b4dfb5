#!/usr/bin/env bash
# Generates a Python client from the live document with openapi-python-client (PyPI; no
# warning allowed), then uses it against the same server: create, list with filters and
# paging, retrieve, and the reference's 1.10 paths (client_check.py); then pynetbox through
# the 1.10 layout (pynetbox_check.py). See docs/api-clients.md. Only 127.0.0.1 is contacted.
set -euo pipefail
source "$(dirname "$0")/lib.sh"

e2e_require_curl
e2e_venv
e2e_build
e2e_start_server

curl -fsS --max-time 30 -o "$E2E_TMP/openapi.json" "$E2E_BASE/api/schema/" ||
    e2e_die "GET /api/schema/ failed"
printf 'package_name_override: peeringd_client\n' >"$E2E_TMP/client-config.yaml"
mkdir -p "$E2E_TMP/client"
e2e_log "openapi-python-client generate"
# Its post-generation hooks run ruff, from the same environment.
if ! PATH="$E2E_BIN_DIR:$PATH" timeout 300 "$E2E_BIN_DIR/openapi-python-client" generate \
    --path "$E2E_TMP/openapi.json" \
    --config "$E2E_TMP/client-config.yaml" \
    --meta none \
    --output-path "$E2E_TMP/client/peeringd_client" \
    --fail-on-warning >"$E2E_TMP/generate.log" 2>&1; then
    cat "$E2E_TMP/generate.log" >&2
    e2e_die "openapi-python-client could not generate a client from the document"
fi
timeout 120 "$E2E_PY" "$E2E_DIR/client_check.py" "$E2E_TMP/client" "$E2E_BASE" "$E2E_TOKEN" ||
    e2e_die "the generated client did not work against the server"
# pynetbox, as scripts written for the reference use it, through its 1.10 layout.
timeout 120 "$E2E_PY" "$E2E_DIR/pynetbox_check.py" "$E2E_BASE" "$E2E_TOKEN" ||
    e2e_die "pynetbox did not work against the server"
e2e_log "passed"
