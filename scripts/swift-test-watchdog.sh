#!/usr/bin/env bash
# Runs `swift test --skip-build ARGS…` with a time limit, writing its output to standard output and to LOG.
#
#   scripts/swift-test-watchdog.sh LIMIT_SECONDS LOG [ARGS…]
#
# The parallel run takes about a minute on the 2-core development machine. If it has not finished within LIMIT_SECONDS,
# the run is taken as hung: this prints what was still running (the tests that started and never finished, every
# thread's stack from gdb, the PostgreSQL sessions when LATCHKEY_TEST_POSTGRES_URL is set), stops the test process and
# exits with 124, so the caller can tell a hang from failed tests (swift test's own exit status otherwise).
set -uo pipefail
limit=$1
log=$2
shift 2

swift test --skip-build "$@" > >(tee "$log") 2>&1 &
runner=$!
deadline=$((SECONDS + limit))
while kill -0 "$runner" 2>/dev/null && [ "$SECONDS" -lt "$deadline" ]; do
    sleep 2
done
if ! kill -0 "$runner" 2>/dev/null; then
    wait "$runner"
    exit $?
fi

echo "error: swift test did not finish within ${limit}s; what was still running:"
# Swift Testing prints `◇ Test NAME started.` and later `✔ Test NAME … passed after …` or `✘ … failed after …`.
echo "tests started and not finished:"
awk '
    /^◇ Test .* started\.$/ && !/^◇ Test (case|run) / { name = $0; sub(/^◇ Test /, "", name); sub(/ started\.$/, "", name); open[name]++ }
    /^(✔|✘) Test .* (passed|failed) after / {
        name = $0; sub(/^(✔|✘) Test /, "", name); sub(/ (with [0-9]+ test cases? )?(passed|failed) after .*$/, "", name); open[name]--
    }
    END { for (name in open) if (open[name] > 0) print "  " name }
' "$log"
# gdb reads the stacks (the toolchain's lldb needs a libpython this machine may not have); installed here, only when
# a run hangs, when it is missing and this runs as root. LATCHKEY_WATCHDOG_STACKS=0 leaves the stacks out.
stacks=${LATCHKEY_WATCHDOG_STACKS:-1}
if [ "$stacks" != 0 ] && ! command -v gdb >/dev/null && [ "$(id -u)" = 0 ] && command -v apt-get >/dev/null; then
    DEBIAN_FRONTEND=noninteractive apt-get install -y -qq gdb >/dev/null 2>&1 || true
fi
for pid in $( [ "$stacks" = 0 ] || pgrep -f 'PackageTests\.xctest' || true); do
    echo "threads of the test process $pid:"
    if command -v gdb >/dev/null; then
        timeout 120 gdb -p "$pid" -batch -ex 'thread apply all bt 16' 2>/dev/null | grep -E '^(Thread |#)' | cut -c1-220 || true
    fi
done
if [ -n "${LATCHKEY_TEST_POSTGRES_URL:-}" ] && command -v psql >/dev/null; then
    echo "PostgreSQL sessions:"
    psql "$LATCHKEY_TEST_POSTGRES_URL" -c 'SELECT pid, state, wait_event_type, wait_event, left(query, 80) AS query FROM pg_stat_activity WHERE backend_type = $$client backend$$' 2>&1 || true
fi
pkill -TERM -f 'PackageTests\.xctest' || true
sleep 3
pkill -KILL -f 'PackageTests\.xctest' || true
# swift test itself, if it is still there (it normally ends with its test process).
kill -TERM "$runner" 2>/dev/null || true
sleep 1
kill -KILL "$runner" 2>/dev/null || true
wait "$runner" 2>/dev/null
exit 124
