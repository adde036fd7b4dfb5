# Shared by the end-to-end scripts of tests/e2e/ (sourced, not run). They build peeringd,
# start it on a fresh SQLite database at 127.0.0.1 on a free port, and drive it with Python
# tools from a virtual environment. Nothing here talks to any other address.
#
# Environment:
#   PEERINGD_E2E_CACHE   where the virtual environment is kept (default ~/.cache/peeringd-e2e)
#   PEERINGD_E2E_ARTIFACTS  where reports and screenshots go (default target/e2e-artifacts)
#   PEERINGD_BIN         a peeringd binary to use instead of building one (debug)
#   CARGO_TARGET_DIR     as for cargo

E2E_DIR="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
E2E_ROOT="$(cd "$E2E_DIR/../.." && pwd)"
E2E_ARTIFACTS="${PEERINGD_E2E_ARTIFACTS:-$E2E_ROOT/target/e2e-artifacts}"
E2E_CACHE="${PEERINGD_E2E_CACHE:-${HOME:-/tmp}/.cache/peeringd-e2e}"
E2E_NAME="$(basename "${0%.sh}")"

e2e_log() { echo "[$E2E_NAME] $*" >&2; }

# Prints the failure and exits non-zero (the EXIT trap stops the server).
e2e_die() {
    echo "[$E2E_NAME] FAILED: $*" >&2
    exit 1
}

# Sets E2E_PY to the Python of the virtual environment, creating it from requirements.txt
# and constraints.txt on first use. One environment per version of those files; a
# half-made one (no .complete marker) is made again.
e2e_venv() {
    local python="${PYTHON:-python3}" key venv
    command -v "$python" >/dev/null 2>&1 || e2e_die "python3 is required"
    key="$(cat "$E2E_DIR/requirements.txt" "$E2E_DIR/constraints.txt" | sha256sum | cut -c1-12)"
    venv="$E2E_CACHE/venv-$key"
    mkdir -p "$E2E_CACHE"
    (
        flock 9
        if [ ! -f "$venv/.complete" ]; then
            e2e_log "creating the virtual environment $venv"
            rm -rf "$venv"
            "$python" -m venv "$venv" >&2 || exit 1
            "$venv/bin/python" -m pip install --quiet --disable-pip-version-check \
                -r "$E2E_DIR/requirements.txt" -c "$E2E_DIR/constraints.txt" >&2 || exit 1
            touch "$venv/.complete"
        fi
    ) 9>"$E2E_CACHE/.lock" || e2e_die "cannot create the virtual environment $venv \
(needs python3 with venv, and pip access to PyPI)"
    E2E_PY="$venv/bin/python"
    E2E_BIN_DIR="$venv/bin"
}

# Sets PEERINGD_BIN, building the debug binary unless one is given.
e2e_build() {
    if [ -n "${PEERINGD_BIN:-}" ]; then
        [ -x "$PEERINGD_BIN" ] || e2e_die "PEERINGD_BIN=$PEERINGD_BIN is not executable"
        return
    fi
    e2e_log "building peeringd (debug)"
    (cd "$E2E_ROOT" && cargo build --quiet -p peeringd --bin peeringd) ||
        e2e_die "cargo build -p peeringd failed"
    PEERINGD_BIN="${CARGO_TARGET_DIR:-$E2E_ROOT/target}/debug/peeringd"
    case "$PEERINGD_BIN" in /*) ;; *) PEERINGD_BIN="$E2E_ROOT/$PEERINGD_BIN" ;; esac
    [ -x "$PEERINGD_BIN" ] || e2e_die "no binary at $PEERINGD_BIN after the build"
}

e2e_free_port() {
    "${E2E_PY:-python3}" - <<'EOF'
import socket
s = socket.socket()
s.bind(("127.0.0.1", 0))
print(s.getsockname()[1])
s.close()
EOF
}

E2E_SERVER_PID=""
E2E_TMP=""

e2e_cleanup() {
    local status=$?
    if [ -n "$E2E_SERVER_PID" ] && kill -0 "$E2E_SERVER_PID" 2>/dev/null; then
        kill "$E2E_SERVER_PID" 2>/dev/null || true
        wait "$E2E_SERVER_PID" 2>/dev/null || true
    fi
    if [ "$status" -ne 0 ] && [ -n "$E2E_TMP" ] && [ -f "$E2E_TMP/server.log" ]; then
        mkdir -p "$E2E_ARTIFACTS"
        cp "$E2E_TMP/server.log" "$E2E_ARTIFACTS/$E2E_NAME-server.log" 2>/dev/null || true
        echo "[$E2E_NAME] server log: $E2E_ARTIFACTS/$E2E_NAME-server.log (last lines below)" >&2
        tail -n 20 "$E2E_TMP/server.log" >&2 || true
    fi
    [ -n "$E2E_TMP" ] && rm -rf "$E2E_TMP"
    exit "$status"
}

# Starts `peeringd serve` on a fresh SQLite database at 127.0.0.1 on a free port (with
# LOGIN_REQUIRED as E2E_LOGIN_REQUIRED says, default false), waits until it answers, and
# sets E2E_BASE (http://127.0.0.1:PORT) and E2E_TOKEN (the admin key printed at first
# start). The server is stopped when the script exits.
e2e_start_server() {
    E2E_TMP="$(mktemp -d "${TMPDIR:-/tmp}/peeringd-e2e.XXXXXX")"
    trap e2e_cleanup EXIT
    trap 'exit 130' INT TERM
    local attempt port i
    for attempt in 1 2 3; do
        port="$(e2e_free_port)"
        rm -f "$E2E_TMP"/db.sqlite3*
        PEERING_LISTEN="127.0.0.1:$port" \
            PEERING_DATABASE_URL="sqlite://$E2E_TMP/db.sqlite3" \
            PEERING_LOGIN_REQUIRED="${E2E_LOGIN_REQUIRED:-false}" \
            RUST_LOG="${RUST_LOG:-warn}" \
            "$PEERINGD_BIN" serve >"$E2E_TMP/server.log" 2>&1 &
        E2E_SERVER_PID=$!
        E2E_BASE="http://127.0.0.1:$port"
        for i in $(seq 1 300); do
            if ! kill -0 "$E2E_SERVER_PID" 2>/dev/null; then
                break
            fi
            E2E_TOKEN="$(sed -n "s/^Created superuser 'admin' with API token: \([0-9a-f]*\)$/\1/p" \
                "$E2E_TMP/server.log" | head -n1)"
            if [ -n "$E2E_TOKEN" ] &&
                curl -fsS -o /dev/null --max-time 2 -H "Authorization: Token $E2E_TOKEN" \
                    "$E2E_BASE/api/status/" 2>/dev/null; then
                e2e_log "peeringd serving at $E2E_BASE (pid $E2E_SERVER_PID)"
                return 0
            fi
            sleep 0.1
        done
        if kill -0 "$E2E_SERVER_PID" 2>/dev/null; then
            e2e_die "peeringd did not answer at $E2E_BASE within 30 s"
        fi
        wait "$E2E_SERVER_PID" 2>/dev/null || true
        E2E_SERVER_PID=""
        # Most likely the port was taken meanwhile: try another.
        e2e_log "peeringd exited at start (attempt $attempt): $(tail -n 1 "$E2E_TMP/server.log")"
    done
    e2e_die "peeringd could not be started"
}

# Debian's chromium and chromium-driver, for selenium; selenium must use the driver given,
# never fetch one.
e2e_require_chromium() {
    export CHROMIUM="${CHROMIUM:-/usr/bin/chromium}"
    export CHROMEDRIVER="${CHROMEDRIVER:-/usr/bin/chromedriver}"
    [ -x "$CHROMIUM" ] || e2e_die "no Chromium at $CHROMIUM (apt-get install chromium)"
    [ -x "$CHROMEDRIVER" ] || e2e_die "no ChromeDriver at $CHROMEDRIVER (apt-get install chromium-driver)"
    export SE_OFFLINE=true SE_AVOID_STATS=true
}

e2e_require_curl() {
    command -v curl >/dev/null 2>&1 || e2e_die "curl is required"
}
