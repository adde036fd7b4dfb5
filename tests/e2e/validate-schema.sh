#!/usr/bin/env bash
# Validates the OpenAPI document with a standard validator (openapi-spec-validator, PyPI):
#  1. the document as a live server serves it, at /api/schema/ and /api/docs/?format=openapi
#     (both must be the same document);
#  2. the unit test `passes_openapi_spec_validator` of peering-openapi, which is skipped unless
#     OPENAPI_SPEC_VALIDATOR names the validator: run here with it set, and checked to have
#     run. Skip this part with E2E_VALIDATE_UNIT=0.
# The served document is kept as target/e2e-artifacts/openapi.json.
set -euo pipefail
source "$(dirname "$0")/lib.sh"

e2e_require_curl
e2e_venv
e2e_build
e2e_start_server

mkdir -p "$E2E_ARTIFACTS"
doc="$E2E_ARTIFACTS/openapi.json"
curl -fsS --max-time 30 -o "$doc" "$E2E_BASE/api/schema/" ||
    e2e_die "GET /api/schema/ failed"
curl -fsS --max-time 30 -o "$E2E_TMP/docs.json" "$E2E_BASE/api/docs/?format=openapi" ||
    e2e_die "GET /api/docs/?format=openapi failed"
cmp -s "$doc" "$E2E_TMP/docs.json" ||
    e2e_die "/api/docs/?format=openapi differs from /api/schema/"

e2e_log "openapi-spec-validator $doc"
"$E2E_BIN_DIR/openapi-spec-validator" "$doc" ||
    e2e_die "the served OpenAPI document is invalid (see above)"

if [ "${E2E_VALIDATE_UNIT:-1}" != "0" ]; then
    e2e_log "unit test passes_openapi_spec_validator with OPENAPI_SPEC_VALIDATOR set"
    out="$E2E_TMP/unit.log"
    if ! (cd "$E2E_ROOT" &&
        OPENAPI_SPEC_VALIDATOR="$E2E_BIN_DIR/openapi-spec-validator" \
            cargo test --quiet --workspace --lib -- --exact \
            document::tests::passes_openapi_spec_validator --nocapture) >"$out" 2>&1; then
        cat "$out" >&2
        e2e_die "unit test passes_openapi_spec_validator failed"
    fi
    if grep -q "validator not run" "$out" || ! grep -q "1 passed" "$out"; then
        cat "$out" >&2
        e2e_die "unit test passes_openapi_spec_validator did not run the validator"
    fi
fi
e2e_log "passed: the document is valid OpenAPI"
