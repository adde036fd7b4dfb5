#!/usr/bin/env bash
# The NAPALM adapter (adapters/napalm/, docs/router-command.md "The NAPALM adapter") passes
# its tests: the installed `peeringd-napalm` run as peeringd runs it, against NAPALM's mock
# driver and the answer files of tests/mocked/. No router and no other address is contacted.
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
set -euo pipefail
HERE="$(cd "$(dirname "$0")" && pwd)"
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
log "passed"
