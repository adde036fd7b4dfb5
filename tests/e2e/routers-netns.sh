#!/usr/bin/env bash
# Routers peeringd drives itself, on a network of their own (docs/driving-routers.md,
# issue 56). As root, it builds network namespaces joined by a bridge, the exchange's LAN
# 10.99.0.0/24 (RFC 1918, the root namespace at .254):
#
#   pdtA  router A, BIRD 2 (10.99.0.1), plus an sshd for the SSH step
#   pdtB  router B, FRR's bgpd without zebra (10.99.0.2)
#   pdtC  peer C, GoBGP (10.99.0.3, AS 65003) announcing three prefixes; not managed
#
# The daemons' control sockets are files in a temporary directory (unix sockets ignore
# network namespaces), so peeringd, on 127.0.0.1 in the root namespace with a fresh SQLite
# database, drives A and B through `napalm_args.socket`. routers-netns/walk.py then goes
# through the API only: it makes the network from the starting templates, pushes both
# configurations, polls until every session is established with C's prefixes, stops C,
# pushes a configuration BIRD refuses, lets BIRD roll back an unconfirmed commit, confirms
# one, imports sessions configured by hand, and reaches A over SSH. Every daemon, namespace,
# link and file made here is removed on exit, failure included. Names start with `pdt`:
# one run at a time per host.
#
# It runs twice: on a fresh SQLite database, then on a fresh PostgreSQL database created at
# $PEERINGD_E2E_POSTGRES (postgres://postgres@127.0.0.1:5432 by default) and dropped at the
# end; without PostgreSQL that run is skipped, except under CI=true where it fails. Run
# one backend alone with `routers-netns.sh sqlite` or `routers-netns.sh postgres`.
set -euo pipefail
source "$(dirname "$0")/lib.sh"
PG_BASE="${PEERINGD_E2E_POSTGRES:-postgres://postgres@127.0.0.1:5432}"

BACKEND="${1:-}"
if [ -z "$BACKEND" ]; then
    bash "$0" sqlite || exit 1
    if pg_isready -d "$PG_BASE/postgres" -t 5 >/dev/null 2>&1; then
        bash "$0" postgres || exit 1
    elif [ "${CI:-}" = "true" ]; then
        e2e_die "PostgreSQL is not reachable at $PG_BASE; CI must run both backends"
    else
        e2e_log "PostgreSQL not reachable at $PG_BASE: its run skipped outside CI"
    fi
    exit 0
fi
case "$BACKEND" in
    sqlite | postgres) E2E_NAME="$E2E_NAME-$BACKEND" ;;
    *) e2e_die "unknown backend $BACKEND (sqlite or postgres)" ;;
esac

[ "$(id -u)" -eq 0 ] || e2e_die "needs root (network namespaces)"
for tool in ip bird birdc vtysh /usr/lib/frr/bgpd /usr/lib/frr/frr-reload.py gobgpd gobgp \
    /usr/sbin/sshd ssh-keygen python3; do
    command -v "$tool" >/dev/null 2>&1 ||
        e2e_die "$tool is missing (apt-get install iproute2 bird2 frr gobgpd openssh-server)"
done
for ns in pdtA pdtB pdtC; do
    if ip netns list | grep -qw "$ns"; then
        e2e_die "namespace $ns exists: another run, or one left over (ip netns delete $ns)"
    fi
done
if ip link show pdtbr0 >/dev/null 2>&1; then
    e2e_die "bridge pdtbr0 exists: another run, or one left over (ip link delete pdtbr0)"
fi

e2e_require_curl
e2e_build

NET_TMP="$(mktemp -d "${TMPDIR:-/tmp}/peeringd-netns.XXXXXX")"
chmod 755 "$NET_TMP"
PIDS=()
NAMESPACES=()
LINKS=()
BRIDGE=""
DATABASE=""

netns_cleanup() {
    local pid ns link
    if [ -n "$E2E_SERVER_PID" ]; then
        kill "$E2E_SERVER_PID" 2>/dev/null || true
        wait "$E2E_SERVER_PID" 2>/dev/null || true
    fi
    if [ -n "$DATABASE" ]; then
        psql -q "$PG_BASE/postgres" -c "DROP DATABASE IF EXISTS $DATABASE WITH (FORCE)" \
            >/dev/null 2>&1 || echo "[$E2E_NAME] could not drop database $DATABASE" >&2
    fi
    for pid in "${PIDS[@]}"; do
        kill "$pid" 2>/dev/null || true
    done
    for pid in "${PIDS[@]}"; do
        for _ in $(seq 1 50); do
            kill -0 "$pid" 2>/dev/null || break
            sleep 0.1
        done
        kill -9 "$pid" 2>/dev/null || true
        wait "$pid" 2>/dev/null || true
    done
    for ns in "${NAMESPACES[@]}"; do
        ip netns delete "$ns" 2>/dev/null || true
    done
    for link in "${LINKS[@]}"; do
        ip link delete "$link" 2>/dev/null || true
    done
    [ -n "$BRIDGE" ] && ip link delete "$BRIDGE" 2>/dev/null || true
    if [ "${1:-0}" -ne 0 ]; then
        if [ -f "$NET_TMP/server.log" ]; then
            mkdir -p "$E2E_ARTIFACTS"
            cp "$NET_TMP/server.log" "$E2E_ARTIFACTS/$E2E_NAME-server.log" 2>/dev/null || true
            echo "[$E2E_NAME] server log: $E2E_ARTIFACTS/$E2E_NAME-server.log" >&2
        fi
        for log in "$NET_TMP"/server.log "$NET_TMP"/b/bgpd.log "$NET_TMP"/c/gobgpd.log "$NET_TMP"/a/bird.log \
            "$NET_TMP"/a/sshd.log; do
            [ -f "$log" ] || continue
            echo "[$E2E_NAME] $log (last lines):" >&2
            tail -n 15 "$log" >&2 || true
        done
    fi
    rm -rf "$NET_TMP"
}
trap 'status=$?; netns_cleanup "$status"; (exit "$status"); e2e_cleanup' EXIT
trap 'exit 130' INT TERM

# Starts peeringd on 127.0.0.1 with the database $1 (as lib.sh's e2e_start_server does for
# SQLite), setting E2E_BASE and E2E_TOKEN.
start_peeringd() {
    local url="$1" port i
    port="$(e2e_free_port)"
    PEERING_LISTEN="127.0.0.1:$port" PEERING_DATABASE_URL="$url" PEERING_LOGIN_REQUIRED=false \
        RUST_LOG="${RUST_LOG:-warn}" "$PEERINGD_BIN" serve >"$NET_TMP/server.log" 2>&1 &
    E2E_SERVER_PID=$!
    E2E_BASE="http://127.0.0.1:$port"
    for i in $(seq 1 300); do
        kill -0 "$E2E_SERVER_PID" 2>/dev/null ||
            e2e_die "peeringd exited at start: $(tail -n 3 "$NET_TMP/server.log")"
        E2E_TOKEN="$(sed -n "s/^Created superuser 'admin' with API token: \([0-9a-f]*\)$/\1/p" \
            "$NET_TMP/server.log" | head -n1)"
        if [ -n "$E2E_TOKEN" ] &&
            curl -fsS -o /dev/null --max-time 2 -H "Authorization: Token $E2E_TOKEN" \
                "$E2E_BASE/api/status/" 2>/dev/null; then
            e2e_log "peeringd ($BACKEND) serving at $E2E_BASE (pid $E2E_SERVER_PID)"
            return 0
        fi
        sleep 0.1
    done
    e2e_die "peeringd did not answer at $E2E_BASE within 30 s: $(tail -n 3 "$NET_TMP/server.log")"
}

if [ "$BACKEND" = sqlite ]; then
    start_peeringd "sqlite://$NET_TMP/db.sqlite3"
else
    pg_isready -d "$PG_BASE/postgres" -t 5 >/dev/null 2>&1 ||
        e2e_die "PostgreSQL is not reachable at $PG_BASE"
    DATABASE="pdt_netns_$$"
    psql -q "$PG_BASE/postgres" -c "CREATE DATABASE $DATABASE" >/dev/null ||
        e2e_die "cannot create the database $DATABASE at $PG_BASE"
    start_peeringd "$PG_BASE/$DATABASE"
fi

# Waits up to $1 seconds for the command after it to succeed; else fails with $2.
wait_for() {
    local seconds="$1" what="$2"
    shift 2
    local until=$((SECONDS + seconds))
    until "$@" >/dev/null 2>&1; do
        [ "$SECONDS" -lt "$until" ] || e2e_die "$what: not within $seconds s"
        sleep 0.2
    done
}

e2e_log "network: bridge pdtbr0 (10.99.0.254/24), namespaces pdtA pdtB pdtC"
ip link add pdtbr0 type bridge
BRIDGE=pdtbr0
ip addr add 10.99.0.254/24 dev pdtbr0
ip link set pdtbr0 up
n=0
for name in A B C; do
    n=$((n + 1))
    ns="pdt$name"
    ip netns add "$ns"
    NAMESPACES+=("$ns")
    ip link add "pdt${name}h" type veth peer name "pdt${name}n" netns "$ns"
    LINKS+=("pdt${name}h")
    ip link set "pdt${name}h" master pdtbr0 up
    ip -n "$ns" link set lo up
    ip -n "$ns" addr add "10.99.0.$n/24" dev "pdt${name}n"
    ip -n "$ns" link set "pdt${name}n" up
done

A="$NET_TMP/a"
B="$NET_TMP/b"
C="$NET_TMP/c"
mkdir -p "$A" "$B" "$C"

e2e_log "router A: BIRD in pdtA, socket $A/bird.ctl"
printf 'router id 10.99.0.1;\nlog "%s/bird.log" all;\nprotocol device {}\n' "$A" >"$A/bird.conf"
ip netns exec pdtA bird -f -c "$A/bird.conf" -s "$A/bird.ctl" -P "$A/bird.pid" \
    >"$A/bird.out" 2>&1 &
PIDS+=($!)
wait_for 10 "BIRD answering on $A/bird.ctl" birdc -s "$A/bird.ctl" show status

e2e_log "router B: FRR's bgpd in pdtB (no zebra), vty socket in $B"
printf 'frr defaults traditional\nhostname pdt-b\nbgp no-rib\n!\n' >"$B/frr.conf"
: >"$B/vtysh.conf"
ip netns exec pdtB /usr/lib/frr/bgpd -f "$B/frr.conf" --vty_socket "$B" -i "$B/bgpd.pid" \
    -z "$B/zserv.api" -S -Z -n -P 0 -l 10.99.0.2 -p 179 --log "file:$B/bgpd.log" \
    >"$B/bgpd.out" 2>&1 &
PIDS+=($!)
wait_for 10 "bgpd answering on $B" vtysh --vty_socket "$B" -c "show version"

e2e_log "peer C: GoBGP in pdtC, AS 65003, three prefixes"
cat >"$C/gobgpd.toml" <<'EOF'
[global.config]
  as = 65003
  router-id = "10.99.0.3"
  port = 179
  local-address-list = ["10.99.0.3"]

[[neighbors]]
  [neighbors.config]
    neighbor-address = "10.99.0.1"
    peer-as = 65001
  [neighbors.timers.config]
    connect-retry = 2

[[neighbors]]
  [neighbors.config]
    neighbor-address = "10.99.0.2"
    peer-as = 65001
  [neighbors.timers.config]
    connect-retry = 2
EOF
# Its gRPC API listens on 127.0.0.1 of pdtC only.
ip netns exec pdtC gobgpd -f "$C/gobgpd.toml" -t toml --api-hosts 127.0.0.1:50051 \
    >"$C/gobgpd.log" 2>&1 &
C_PID=$!
PIDS+=("$C_PID")
wait_for 10 "gobgpd answering in pdtC" ip netns exec pdtC gobgp global
for prefix in 198.51.100.0/25 198.51.100.128/25 203.0.113.0/24; do
    ip netns exec pdtC gobgp global rib add -a ipv4 "$prefix" >/dev/null ||
        e2e_die "gobgp could not add $prefix"
done

e2e_log "sshd in pdtA on 10.99.0.1:2222"
ssh-keygen -q -t ed25519 -N '' -f "$A/host_key"
ssh-keygen -q -t ed25519 -N '' -f "$A/client_key"
cp "$A/client_key.pub" "$A/authorized_keys"
cat >"$A/sshd_config" <<EOF
Port 2222
ListenAddress 10.99.0.1
HostKey $A/host_key
AuthorizedKeysFile $A/authorized_keys
StrictModes no
PermitRootLogin prohibit-password
PasswordAuthentication no
KbdInteractiveAuthentication no
UsePAM no
PidFile none
LogLevel VERBOSE
EOF
mkdir -p /run/sshd
ip netns exec pdtA /usr/sbin/sshd -D -e -f "$A/sshd_config" >"$A/sshd.log" 2>&1 &
PIDS+=($!)
wait_for 10 "sshd listening on 10.99.0.1:2222" bash -c 'exec 3<>/dev/tcp/10.99.0.1/2222'

export E2E_BASE E2E_TOKEN C_PID
export A_SOCKET="$A/bird.ctl" A_CONFIG="$A/bird.conf"
export B_SOCKET="$B" B_CONFIG="$B/frr.conf"
export SSH_PORT=2222 SSH_KEY="$A/client_key" SSH_HOST_KEY="$(cat "$A/host_key.pub")"
export SSHD_LOG="$A/sshd.log"
export TEMPLATES="$E2E_ROOT/templates"
timeout 240 python3 "$E2E_DIR/routers-netns/walk.py" ||
    e2e_die "the walk through the API failed (above)"
e2e_log "passed"
