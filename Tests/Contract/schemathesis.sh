#!/usr/bin/env bash
# Schemathesis against a live `latchkey serve` (a fresh SQLite database on a free loopback port): every operation of
# the OpenAPI document the server serves at /openapi.json, with property-based examples, the schema's coverage cases,
# and stateful sequences where the document's links allow (options → verify), checked for server errors, status
# codes, content types and response schemas. Bounded: --max-examples per operation, and --max-time: fuzzing and
# stateful testing repeat until LATCHKEY_SCHEMATHESIS_SECONDS (180) are spent, then 20 s for the session-ending operations.
# Usage: Tests/Contract/schemathesis.sh PYTHON LATCHKEY   (PYTHON: the venv of scripts/python-env.sh; LATCHKEY: the binary)
# Exits 0 when schemathesis reports no failure; prints the number of test cases it ran.
set -euo pipefail
python=${1:?usage: schemathesis.sh PYTHON LATCHKEY}
latchkey=${2:?usage: schemathesis.sh PYTHON LATCHKEY}
examples=${LATCHKEY_SCHEMATHESIS_EXAMPLES:-25}
budget=${LATCHKEY_SCHEMATHESIS_SECONDS:-180}
# One worker: with two, Hypothesis describes filters by parsing source with `ast` in two threads at once, which
# CPython 3.11 (this machine's) can fail with "SystemError: AST constructor recursion depth mismatch" (seen on
# DELETE /v1/sessions/{id}); the time budget, not the worker count, bounds the run.
workers=${LATCHKEY_SCHEMATHESIS_WORKERS:-1}
work=$(mktemp -d /tmp/latchkey-schemathesis.XXXXXX)
server_pid=
cleanup() {
    if [ -n "$server_pid" ]; then kill "$server_pid" 2>/dev/null || true; wait "$server_pid" 2>/dev/null || true; fi
    rm -rf "$work"
}
trap cleanup EXIT

port=$("$python" -c 'import socket; s = socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])')
# Email on, written to the log (`log:`), so the email routes answer beyond 404 email.disabled.
LATCHKEY_SMTP_URL=log: "$latchkey" serve --host 127.0.0.1 --port "$port" --database "sqlite://$work/server.sqlite" \
    --rate-limit 0 >"$work/serve.log" 2>&1 &
server_pid=$!
for _ in $(seq 100); do grep -q "Latchkey listening" "$work/serve.log" && break; sleep 0.1; done
grep -q "Latchkey listening" "$work/serve.log" || { echo "schemathesis: latchkey serve did not start: $(cat "$work/serve.log")" >&2; exit 1; }

# A signed-in account, so the session routes are exercised past 401: a password sign-up answers a Bearer token.
password="correct horse battery staple 1"
token=$("$python" - "$port" "$password" <<'PY'
import json, sys, urllib.request
body = json.dumps({"username": "schemathesis", "password": sys.argv[2]}).encode()
request = urllib.request.Request(f"http://127.0.0.1:{sys.argv[1]}/v1/password/register", data=body,
                                 headers={"Content-Type": "application/json"})
print(json.load(urllib.request.urlopen(request))["session"]["token"])
PY
) || { echo "schemathesis: the password sign-up for a session failed" >&2; exit 1; }

# Tests/Contract/hooks.py signs every case in as that account and supplies what no generator can (signatures, the
# password, one-time codes) to the positive cases of the operations that need them.
export PYTHONDONTWRITEBYTECODE=1 SCHEMATHESIS_HOOKS=hooks PYTHONPATH="$(cd "$(dirname "$0")" && pwd)${PYTHONPATH:+:$PYTHONPATH}"
export LATCHKEY_CONTRACT_URL="http://127.0.0.1:$port" LATCHKEY_CONTRACT_ORIGIN="http://localhost:$port" \
    LATCHKEY_CONTRACT_TOKEN="$token" LATCHKEY_CONTRACT_PASSWORD="$password" LATCHKEY_CONTRACT_LOG="$work/serve.log"

schemathesis=$(dirname "$python")/schemathesis
# run LOG SECONDS PHASES FILTER...: schemathesis over the operations FILTER selects, signed in with the token (the hooks
# add it), for at most SECONDS (fuzzing and stateful testing repeat until the time is spent).
run() {
    local log=$1 seconds=$2 phases=$3
    shift 3
    # From the scratch directory, so schemathesis's own state (.schemathesis/) stays out of the checkout.
    (cd "$work" && "$schemathesis" run "http://127.0.0.1:$port/openapi.json" --url "http://127.0.0.1:$port" \
        --checks not_a_server_error,status_code_conformance,content_type_conformance,response_schema_conformance \
        --phases "$phases" --max-examples "$examples" --max-time "$seconds" \
        --generation-database none --workers "$workers" --seed 1 --no-color \
        "$@") 2>&1 | tee "$work/$log"
    return "${PIPESTATUS[0]}"
}
status=0
# Everything but the operations that can end the run's own session (signing out, everywhere or of one session by its
# id, which a link from GET /v1/sessions supplies, and deleting the account), so the session routes are tested signed
# in; then those (without the stateful phase).
run all.log "$budget" examples,coverage,fuzzing,stateful --exclude-operation-id deleteAccount --exclude-operation-id logout --exclude-operation-id signOutEverywhere --exclude-operation-id endSession || status=1
# The session must have outlived the first run: a run that lost it tested the session routes only as far as 401.
if ! "$python" - "$port" "$token" <<'PY'
import sys, urllib.request
request = urllib.request.Request(f"http://127.0.0.1:{sys.argv[1]}/v1/me", headers={"Authorization": f"Bearer {sys.argv[2]}"})
urllib.request.urlopen(request)
PY
then
    echo "schemathesis: the run's session was ended during the run; the session routes were not tested signed in" >&2
    status=1
fi
run ending.log 20 examples,coverage,fuzzing --include-operation-id deleteAccount --include-operation-id logout --include-operation-id signOutEverywhere --include-operation-id endSession || status=1
# Every operation's acceptance is in the schema or supplied by the hooks: an operation that refused all its valid data
# is a schema that says less than the server checks.
if grep -q "Schema validation mismatch" "$work/all.log" "$work/ending.log"; then
    echo "schemathesis: an operation refused every valid case it was sent (schema validation mismatch, above)" >&2
    status=1
fi
cases=0
for log in all.log ending.log; do
    count=$(grep -Eo '[0-9]+ generated' "$work/$log" | tail -n 1 | grep -Eo '[0-9]+' || echo 0)
    cases=$((cases + count))
done
echo "schemathesis: $cases test cases against latchkey serve; exit $status"
if grep -q "Latchkey" "$work/serve.log" && grep -qi "fatal\|crash" "$work/serve.log"; then
    echo "schemathesis: the server log shows a crash:" >&2; cat "$work/serve.log" >&2; exit 1
fi
exit "$status"
