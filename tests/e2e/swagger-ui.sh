#!/usr/bin/env bash
# Swagger UI in headless Chromium (Debian's chromium and chromium-driver, driven by selenium):
# every application's operations are listed, Authorize + Try it out work against the same
# server (started with LOGIN_REQUIRED, so a 200 proves the token was sent), and a screenshot
# is saved as target/e2e-artifacts/swagger-ui.png. Only 127.0.0.1 is contacted.
set -euo pipefail
source "$(dirname "$0")/lib.sh"

e2e_require_chromium
e2e_require_curl
e2e_venv
e2e_build
E2E_LOGIN_REQUIRED=true e2e_start_server

mkdir -p "$E2E_ARTIFACTS"
shot="$E2E_ARTIFACTS/swagger-ui.png"
rm -f "$shot"
timeout --kill-after=10 300 "$E2E_PY" "$E2E_DIR/swagger_ui.py" "$E2E_BASE" "$E2E_TOKEN" "$shot" ||
    e2e_die "the Swagger UI check failed (screenshot, if any: $shot)"
[ -s "$shot" ] || e2e_die "no screenshot at $shot"
e2e_log "passed; screenshot $shot"
