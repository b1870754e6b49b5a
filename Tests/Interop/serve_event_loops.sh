#!/usr/bin/env bash
# `latchkey serve --event-loops`: the built server runs as many event loop threads as its settings ask for (the flag
# over LATCHKEY_EVENT_LOOPS), counted in /proc, and says so in its start line. The setting must reach SwiftNIO's shared
# group before anything makes it, so only a real process shows that it did.
# Usage: Tests/Interop/serve_event_loops.sh PYTHON LATCHKEY   (PYTHON picks a free port; LATCHKEY the built binary)
# Exits 0 when both starts run the loops asked for, 1 otherwise.
set -euo pipefail
python=${1:?usage: serve_event_loops.sh PYTHON LATCHKEY}
latchkey=${2:?usage: serve_event_loops.sh PYTHON LATCHKEY}
work=$(mktemp -d /tmp/latchkey-loops.XXXXXX)
server_pid=
stop_server() {
    if [ -n "$server_pid" ]; then kill "$server_pid" 2>/dev/null || true; wait "$server_pid" 2>/dev/null || true; fi
    server_pid=
}
trap 'stop_server; rm -rf "$work"' EXIT

fail() { echo "serve event loops: $1" >&2; exit 1; }

# expect_loops COUNT LINE_SUFFIX [ENV…] -- [FLAGS…]: starts a server with ENV and FLAGS, checks its event loop
# threads (SwiftNIO names them NIO-SGLTN-…) and the end of its start line, and stops it.
expect_loops() {
    local count=$1 suffix=$2; shift 2
    local environment=()
    while [ "$1" != -- ]; do environment+=("$1"); shift; done
    shift
    local port
    port=$("$python" -c 'import socket; s = socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])')
    env "${environment[@]}" "$latchkey" serve --port "$port" --database "sqlite://$work/server-$count.sqlite" "$@" \
        >"$work/serve.log" 2>&1 &
    server_pid=$!
    for _ in $(seq 100); do grep -q "Latchkey listening" "$work/serve.log" && break; sleep 0.1; done
    local line
    line=$(grep "Latchkey listening" "$work/serve.log") || fail "latchkey serve did not start: $(cat "$work/serve.log")"
    [[ "$line" == *"$suffix" ]] || fail "the start line does not end in '$suffix': $line"
    # Distinct names: a thread another thread starts carries its creator's name until it sets its own (seen once in CI:
    # a second NIO-SGLTN-1-#3 beside the three loops), and each loop's name is its own.
    local threads
    threads=$(cat /proc/"$server_pid"/task/*/comm | grep '^NIO-SGLTN' | sort -u | grep -c . || true)
    [ "$threads" = "$count" ] || fail "expected $count event loop threads, found $threads: $(cat /proc/"$server_pid"/task/*/comm | tr '\n' ' ')"
    grep -q "warning" "$work/serve.log" && fail "the server warned: $(cat "$work/serve.log")"
    stop_server
}

expect_loops 1 ", 1 event loop)" LATCHKEY_EVENT_LOOPS=3 -- --event-loops 1
expect_loops 3 ", 3 event loops)" LATCHKEY_EVENT_LOOPS=3 --
echo "serve event loops: ok"
