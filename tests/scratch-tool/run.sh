#!/usr/bin/env bash
# A tool outside the workspace (tests/scratch-tool/: its own [workspace] and Cargo.lock, path
# dependencies on peering-domain and peering-client only) builds alone, pulls in no database
# or web framework (no diesel, actix, libsqlite3 or pq-sys in its tree), and works against a
# live peeringd on a fresh SQLite database: typed bodies validated, the server's message for
# an invalid one, a list with a typed filter, a bulk creation and deletion. Only 127.0.0.1 is
# contacted.
#
# The tool builds into target/scratch-tool (under CARGO_TARGET_DIR if set), apart from the
# workspace's own builds. Its Cargo.lock is committed and used as is (--locked): after a
# dependency change in peering-domain or peering-client, run
# `cargo update --manifest-path tests/scratch-tool/Cargo.toml --offline` and commit it.
set -euo pipefail
source "$(dirname "$0")/../e2e/lib.sh"
E2E_NAME="scratch-tool"

TOOL_DIR="$E2E_ROOT/tests/scratch-tool"
MANIFEST="$TOOL_DIR/Cargo.toml"
WORKSPACE_TARGET="${CARGO_TARGET_DIR:-$E2E_ROOT/target}"
case "$WORKSPACE_TARGET" in /*) ;; *) WORKSPACE_TARGET="$E2E_ROOT/$WORKSPACE_TARGET" ;; esac
TOOL_TARGET="$WORKSPACE_TARGET/scratch-tool"

e2e_require_curl

# Outside the workspace, `cargo fmt --all` does not reach it: checked here.
cargo fmt --manifest-path "$MANIFEST" -- --check >&2 || e2e_die "the tool is not formatted (cargo fmt --manifest-path $MANIFEST)"

# Its own workspace, not the repository's.
root="$(cargo locate-project --workspace --message-format plain --manifest-path "$MANIFEST")" ||
    e2e_die "cargo locate-project failed"
[ "$root" = "$MANIFEST" ] || e2e_die "the tool belongs to the workspace at $root, not its own"

tree="$(CARGO_TARGET_DIR="$TOOL_TARGET" cargo tree --locked --manifest-path "$MANIFEST" \
    -e normal --prefix none --format '{p}')" ||
    e2e_die "cargo tree failed (a stale tests/scratch-tool/Cargo.lock? see the top of run.sh)"
grep -q '^peering-client ' <<<"$tree" || e2e_die "the tool does not depend on peering-client"
heavy="$(grep -E '^(diesel|actix|libsqlite3|pq-sys)' <<<"$tree" | sort -u || true)"
[ -z "$heavy" ] || e2e_die "the tool's dependencies include a database or web framework:
$heavy"
e2e_log "no diesel, actix, libsqlite3 or pq-sys among the tool's dependencies"

e2e_log "building the tool into $TOOL_TARGET"
CARGO_TARGET_DIR="$TOOL_TARGET" cargo build --quiet --locked --manifest-path "$MANIFEST" ||
    e2e_die "the tool does not build (a stale tests/scratch-tool/Cargo.lock? see the top of run.sh)"
TOOL="$TOOL_TARGET/debug/scratch-tool"
[ -x "$TOOL" ] || e2e_die "no binary at $TOOL after the build"

e2e_build
e2e_start_server
timeout 120 "$TOOL" "$E2E_BASE" "$E2E_TOKEN" || e2e_die "the tool failed against the server"
e2e_log "passed"
