#!/usr/bin/env bash
# The NAPALM adapter (adapters/napalm/, docs/router-command.md "The NAPALM adapter") passes
# its tests:
#  1. pytest: the installed `peeringd-napalm` run as peeringd runs it, against NAPALM's mock
#     driver and the answer files of tests/mocked/;
#  2. the integration test napalm_adapter of peeringd (crates/peeringd/tests/it/), which
#     skips itself unless PEERINGD_NAPALM names the adapter: run here with it set, and
#     checked to have run: the server polls, tests and configures a router through the
#     adapter. Skip this part with NAPALM_ADAPTER_IT=0.
# No router and no other address than 127.0.0.1 is contacted.
#
# The tests' Python packages (tests/requirements.txt, pinned by tests/constraints.txt) are
# kept in a virtual environment under $PEERINGD_E2E_CACHE (default ~/.cache/peeringd-e2e),
# made once per version of those files and of pyproject.toml; the adapter is installed
# there again at each run, from a copy of its sources (nothing is written in the tree).
# Arguments are passed to pytest.
#
# Environment:
#   PEERINGD_E2E_CACHE   where the virtual environment is kept
#   PYTHON               the Python that makes it (default python3)
#   NAPALM_ADAPTER_IT    0 to leave out the integration test (which needs cargo)
#   CARGO_TARGET_DIR     as for cargo
set -euo pipefail
HERE="$(cd "$(dirname "$0")" && pwd)"
ROOT="$(cd "$HERE/../.." && pwd)"
CACHE="${PEERINGD_E2E_CACHE:-${HOME:-/tmp}/.cache/peeringd-e2e}"
python="${PYTHON:-python3}"

log() { echo "[napalm-adapter] $*" >&2; }
die() {
    echo "[napalm-adapter] FAILED: $*" >&2
    exit 1
}

command -v "$python" >/dev/null 2>&1 || die "python3 is required"
key="$(cat "$HERE/pyproject.toml" "$HERE/tests/requirements.txt" "$HERE/tests/constraints.txt" |
    sha256sum | cut -c1-12)"
venv="$CACHE/napalm-venv-$key"
mkdir -p "$CACHE"

TMP="$(mktemp -d "${TMPDIR:-/tmp}/peeringd-napalm.XXXXXX")"
trap 'rm -rf "$TMP"' EXIT
trap 'exit 130' INT TERM

# One run at a time per environment: each installs the adapter in it.
exec 9>"$CACHE/.napalm-venv.lock"
flock 9
if [ ! -f "$venv/.complete" ]; then
    log "creating the virtual environment $venv"
    rm -rf "$venv"
    "$python" -m venv "$venv" >&2 || die "cannot create a virtual environment (python3-venv)"
    "$venv/bin/python" -m pip install --quiet --disable-pip-version-check \
        -r "$HERE/tests/requirements.txt" -c "$HERE/tests/constraints.txt" >&2 ||
        die "cannot install tests/requirements.txt (needs pip access to PyPI)"
    touch "$venv/.complete"
fi

log "installing the adapter in $venv"
mkdir "$TMP/src"
cp -r "$HERE/pyproject.toml" "$HERE/src" "$TMP/src/"
"$venv/bin/python" -m pip install --quiet --disable-pip-version-check --no-deps \
    --no-build-isolation --force-reinstall "$TMP/src" >&2 ||
    die "pip install adapters/napalm failed"
"$venv/bin/python" -m pip check --disable-pip-version-check >&2 ||
    die "the adapter's dependencies are not met (pyproject.toml against tests/constraints.txt)"
[ -x "$venv/bin/peeringd-napalm" ] || die "no peeringd-napalm script after the install"

log "pytest adapters/napalm/tests"
cd "$HERE"
PEERINGD_NAPALM="$venv/bin/peeringd-napalm" PYTHONDONTWRITEBYTECODE=1 \
    "$venv/bin/python" -m pytest -q -p no:cacheprovider "$@" tests ||
    die "the adapter's tests failed (above)"

if [ "${NAPALM_ADAPTER_IT:-1}" != "0" ]; then
    test_name="napalm_adapter::the_napalm_adapter_tests_polls_and_configures_a_mock_router"
    log "integration test $test_name with PEERINGD_NAPALM set"
    command -v cargo >/dev/null 2>&1 || die "cargo is required (or set NAPALM_ADAPTER_IT=0)"
    out="$TMP/it.log"
    # --workspace, as .ci/run's `cargo test --workspace`: the same features, no rebuild.
    if ! (cd "$ROOT" &&
        PEERINGD_NAPALM="$venv/bin/peeringd-napalm" \
            cargo test --quiet --workspace --test it -- --exact "$test_name" --nocapture) \
        >"$out" 2>&1; then
        cat "$out" >&2
        die "the integration test $test_name failed"
    fi
    if grep -q "adapter not run" "$out" || ! grep -q "1 passed" "$out"; then
        cat "$out" >&2
        die "the integration test $test_name did not run the adapter"
    fi
fi
log "passed"
