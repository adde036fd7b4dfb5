#!/usr/bin/env bash
# The web pages in headless Chromium (Debian's chromium and chromium-driver, driven by
# selenium): log in, create a token on the API tokens page, read its key, use it with an
# HTTP client to create an object, browse /api/peering/autonomous-systems/ as HTML, log
# out. Screenshot of the tokens page: target/e2e-artifacts/api-tokens.png. Only 127.0.0.1
# is contacted.
set -euo pipefail
source "$(dirname "$0")/lib.sh"

e2e_require_chromium
e2e_require_curl
e2e_venv
e2e_build
e2e_start_server

# The first-start admin has a token but no password: give it one, as an operator would.
password="e2e-$(head -c 12 /dev/urandom | od -An -tx1 | tr -d ' \n')"
printf '%s\n' "$password" |
    PEERING_DATABASE_URL="sqlite://$E2E_TMP/db.sqlite3" RUST_LOG=warn \
        "$PEERINGD_BIN" user set-password --username admin >/dev/null 2>&1 ||
    e2e_die "peeringd user set-password failed"

mkdir -p "$E2E_ARTIFACTS"
shot="$E2E_ARTIFACTS/api-tokens.png"
rm -f "$shot"
timeout --kill-after=10 300 "$E2E_PY" "$E2E_DIR/web_login.py" "$E2E_BASE" admin "$password" "$shot" ||
    e2e_die "the web pages check failed (screenshot, if any: $shot)"
[ -s "$shot" ] || e2e_die "no screenshot at $shot"
e2e_log "passed; screenshot $shot"
