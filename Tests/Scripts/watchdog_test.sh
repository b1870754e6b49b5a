#!/usr/bin/env bash
# Checks scripts/swift-test-watchdog.sh against a stand-in `swift` (first on PATH): a run that finishes keeps its exit
# status, and a run that hangs is stopped at the limit with exit status 124, naming the test that never finished; and
# scripts/swift-test-failures.sh, which lists a failed run's failures.
set -uo pipefail
cd "$(dirname "$0")/../.."
work=$(mktemp -d /tmp/latchkey-watchdog.XXXXXX)
trap 'rm -rf "$work"' EXIT
fail() { echo "watchdog_test: $1"; exit 1; }

cat >"$work/swift" <<'STANDIN'
#!/usr/bin/env bash
echo "◇ Test run started."
echo "◇ Test quick() started."
echo "✔ Test quick() passed after 0.001 seconds."
echo "◇ Test stuck() started."
case "${WATCHDOG_TEST_MODE:-}" in
    hang) exec -a "watchdog-standin-$WATCHDOG_TEST_TAG" sleep 600 ;;
    fail)
        echo "✘ Test stuck() recorded an issue at Stuck.swift:3:5: Expectation failed: 1 == 2"
        echo "↳ the detail"
        echo "✔ Test other() passed after 0.001 seconds."
        echo "/x/Old.swift:9: error: -[Old testIt] : XCTAssertTrue failed"
        exit 3 ;;
    *) echo "✔ Test stuck() passed after 0.002 seconds."; exit 0 ;;
esac
STANDIN
chmod +x "$work/swift"

PATH="$work:$PATH" LATCHKEY_TEST_POSTGRES_URL='' bash scripts/swift-test-watchdog.sh 20 "$work/pass.log" >"$work/pass.out" 2>&1
[ $? -eq 0 ] || fail "a finished run should keep exit status 0"
PATH="$work:$PATH" WATCHDOG_TEST_MODE=fail LATCHKEY_TEST_POSTGRES_URL='' bash scripts/swift-test-watchdog.sh 20 "$work/fail.log" >"$work/fail.out" 2>&1
[ $? -eq 3 ] || fail "a failed run should keep its exit status (3)"
bash scripts/swift-test-failures.sh "$work/fail.log" >"$work/failures.out"
printf '%s\n' "✘ Test stuck() recorded an issue at Stuck.swift:3:5: Expectation failed: 1 == 2" "↳ the detail" \
    "/x/Old.swift:9: error: -[Old testIt] : XCTAssertTrue failed" | cmp -s - "$work/failures.out" \
    || { cat "$work/failures.out"; fail "the failures are not listed as they should be"; }
[ -z "$(bash scripts/swift-test-failures.sh "$work/pass.log")" ] || fail "a passing run lists failures"

started=$SECONDS
PATH="$work:$PATH" WATCHDOG_TEST_MODE=hang WATCHDOG_TEST_TAG=$$ LATCHKEY_WATCHDOG_STACKS=0 LATCHKEY_TEST_POSTGRES_URL='' bash scripts/swift-test-watchdog.sh 3 "$work/hang.log" >"$work/hang.out" 2>&1
status=$?
[ $status -eq 124 ] || { cat "$work/hang.out"; fail "a hung run should end with 124, got $status"; }
[ $((SECONDS - started)) -lt 60 ] || fail "a hung run should be stopped soon after its limit"
grep -q "did not finish within 3s" "$work/hang.out" || fail "the hang is not reported"
grep -qx "  stuck()" "$work/hang.out" || { cat "$work/hang.out"; fail "the unfinished test is not named"; }
if grep -qx "  quick()" "$work/hang.out"; then fail "a finished test is named as unfinished"; fi
pgrep -f "watchdog-standin-$$" >/dev/null && fail "the hung run was left running"
echo "watchdog_test: ok"
