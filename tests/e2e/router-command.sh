#!/usr/bin/env bash
# A router command for the fuzzing run (docs/router-command.md): every router answers at
# once, with nothing to report, so that router actions are exercised without a router.
cat >/dev/null
case "${1:-}" in
    poll) echo '{"sessions": []}' ;;
    configure) echo '{"changed": false, "committed": false, "diff": ""}' ;;
    test) echo '{"ok": true, "message": "fuzzing"}' ;;
    *) echo "unknown action $1" >&2; exit 2 ;;
esac
