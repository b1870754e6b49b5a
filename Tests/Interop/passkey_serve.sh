#!/usr/bin/env bash
# `latchkey passkey` against our own `latchkey serve` (a fresh SQLite database on a loopback port), with both
# profiles: register, login (with and without a username), list, rename, add, remove — exit codes, the JSON
# each command prints, and that `remove` asks the server first (a refusal there leaves the local passkey alone).
# Usage: Tests/Interop/passkey_serve.sh PYTHON LATCHKEY   (PYTHON reads the JSON; LATCHKEY the built binary)
# Exits 0 when every step behaves, 1 otherwise.
set -euo pipefail
python=${1:?usage: passkey_serve.sh PYTHON LATCHKEY}
latchkey=${2:?usage: passkey_serve.sh PYTHON LATCHKEY}
work=$(mktemp -d /tmp/latchkey-serve.XXXXXX)
server_pid=
cleanup() {
    if [ -n "$server_pid" ]; then kill "$server_pid" 2>/dev/null || true; wait "$server_pid" 2>/dev/null || true; fi
    rm -rf "$work"
}
trap cleanup EXIT

fail() { echo "passkey serve: $1" >&2; exit 1; }
# json PATH < JSON: the value at a dotted path (list indexes are numbers), or "" when absent.
json() {
    "$python" -c '
import json, sys
value = json.load(sys.stdin)
for key in sys.argv[1].split("."):
    try:
        value = value[int(key)] if isinstance(value, list) else value[key]
    except (KeyError, IndexError, ValueError, TypeError):
        value = ""
        break
print(json.dumps(value) if isinstance(value, (list, dict, bool)) else value)' "$1"
}
# expect_failure STATUS CODE OUTPUT: the command exited with STATUS and printed the error CODE with a message.
expect_failure() {
    [ "$1" = "$2" ] || fail "expected exit $2, got $1: $4"
    [ "$(json error.code <<<"$4")" = "$3" ] || fail "expected error $3: $4"
    [ -n "$(json error.message <<<"$4")" ] || fail "the $3 error has no message: $4"
}

port=$("$python" -c 'import socket; s = socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])')
"$latchkey" serve --port "$port" --database "sqlite://$work/server.sqlite" --rate-limit 0 >"$work/serve.log" 2>&1 &
server_pid=$!
for _ in $(seq 100); do grep -q "Latchkey listening" "$work/serve.log" && break; sleep 0.1; done
grep -q "Latchkey listening" "$work/serve.log" || fail "latchkey serve did not start: $(cat "$work/serve.log")"
server=(--server "http://localhost:$port")

# --- native profile (/v1) ---
laptop=(--store "$work/laptop" "${server[@]}")
phone=(--store "$work/phone" "${server[@]}")

out=$("$latchkey" passkey register --username alice --display-name Alice "${laptop[@]}") || fail "native register failed: $out"
[ "$(json status <<<"$out")" = registered ] || fail "native register: $out"
id=$(json credentialID <<<"$out")
user=$(json userID <<<"$out")
[ -n "$id" ] && [ -n "$user" ] || fail "native register printed no credential or user ID: $out"

out=$("$latchkey" passkey login --username alice "${laptop[@]}") || fail "native login --username failed: $out"
[ "$(json credentialID <<<"$out")" = "$id" ] && [ "$(json userID <<<"$out")" = "$user" ] || fail "native login --username: $out"
[ -n "$(json sessionExpiresAt <<<"$out")" ] || fail "native login has no session expiry: $out"
out=$("$latchkey" passkey login "${laptop[@]}") || fail "native username-less login failed: $out"
[ "$(json credentialID <<<"$out")" = "$id" ] && [ "$(json username <<<"$out")" = alice ] || fail "native username-less login: $out"

out=$("$latchkey" passkey list "${laptop[@]}") || fail "native list failed: $out"
[ "$(json server.0.id <<<"$out")" = "$id" ] && [ "$(json server.0.onThisDevice <<<"$out")" = true ] || fail "native list (server): $out"
[ -n "$(json server.0.lastUsedAt <<<"$out")" ] && [ "$(json server.0.deviceType <<<"$out")" = multi-device ] || fail "native list fields: $out"
[ "$(json local.0.id <<<"$out")" = "$id" ] && [ -z "$(json server.1 <<<"$out")" ] || fail "native list (local): $out"

out=$("$latchkey" passkey rename "${laptop[@]}" -- "$id" "Laptop") || fail "native rename failed: $out"
[ "$(json name <<<"$out")" = Laptop ] || fail "native rename: $out"
[ "$("$latchkey" passkey list "${laptop[@]}" | json server.0.name)" = Laptop ] || fail "the new name is not listed"

# The last passkey: the server refuses, so the local credential stays (server first, then local).
status=0; out=$("$latchkey" passkey remove "${laptop[@]}" -- "$id") || status=$?
expect_failure "$status" 1 passkey.lastCredential "$out"
[ "$("$latchkey" passkey list "${laptop[@]}" | json local.0.id)" = "$id" ] || fail "a refused remove dropped the local passkey"

# A second device: sign in with the laptop's passkey, create one in the phone's store.
out=$("$latchkey" passkey add --username alice --sign-in-store "$work/laptop" --name Phone "${phone[@]}") || fail "native add failed: $out"
second=$(json id <<<"$out")
[ -n "$second" ] && [ "$second" != "$id" ] && [ "$(json name <<<"$out")" = Phone ] || fail "native add: $out"
status=0; out=$("$latchkey" passkey add --username alice "${laptop[@]}") || status=$?
expect_failure "$status" 1 authenticator.excludedCredential "$out"
out=$("$latchkey" passkey list "${laptop[@]}") || fail "native list after add failed: $out"
[ "$(json server.1.id <<<"$out")" = "$second" ] && [ "$(json server.1.onThisDevice <<<"$out")" = false ] || fail "native list after add: $out"

out=$("$latchkey" passkey remove "${phone[@]}" -- "$second") || fail "native remove failed: $out"
[ "$(json removedOnServer <<<"$out")" = true ] && [ "$(json removedLocally <<<"$out")" = true ] || fail "native remove: $out"
out=$("$latchkey" passkey list "${laptop[@]}") || fail "native list after remove failed: $out"
[ "$(json server.0.id <<<"$out")" = "$id" ] && [ -z "$(json server.1 <<<"$out")" ] || fail "the server still lists the removed passkey: $out"
[ "$("$latchkey" passkey list --profile conformance "${phone[@]}" | json local)" = "[]" ] || fail "the removed passkey is still in the phone's store"
status=0; out=$("$latchkey" passkey login "${phone[@]}") || status=$?
expect_failure "$status" 1 authenticator.noCredentials "$out"

# --- conformance profile (/attestation, /assertion) ---
key=(--profile conformance --store "$work/key" "${server[@]}")
out=$("$latchkey" passkey register --username bob "${key[@]}") || fail "conformance register failed: $out"
bob=$(json credentialID <<<"$out")
[ -n "$bob" ] && [ "$(json status <<<"$out")" = registered ] || fail "conformance register: $out"
out=$("$latchkey" passkey login --username bob "${key[@]}") || fail "conformance login --username failed: $out"
[ "$(json credentialID <<<"$out")" = "$bob" ] || fail "conformance login --username: $out"
out=$("$latchkey" passkey login "${key[@]}") || fail "conformance username-less login failed: $out"
[ "$(json credentialID <<<"$out")" = "$bob" ] || fail "conformance username-less login: $out"
status=0; out=$("$latchkey" passkey register --username bob "${key[@]}") || status=$?
expect_failure "$status" 1 user.nameTaken "$out"
out=$("$latchkey" passkey list "${key[@]}") || fail "conformance list failed: $out"
[ "$(json local.0.id <<<"$out")" = "$bob" ] && [ "$(json local.0.userName <<<"$out")" = bob ] || fail "conformance list: $out"
status=0; out=$("$latchkey" passkey rename "${key[@]}" -- "$bob" Key) || status=$?
expect_failure "$status" 2 usage.unsupportedProfile "$out"
out=$("$latchkey" passkey remove "${key[@]}" -- "$bob") || fail "conformance remove failed: $out"
[ "$(json removedOnServer <<<"$out")" = false ] && [ "$(json removedLocally <<<"$out")" = true ] || fail "conformance remove: $out"
status=0; out=$("$latchkey" passkey login --username bob "${key[@]}") || status=$?
expect_failure "$status" 1 authenticator.noCredentials "$out"

# --- no server on the port ---
kill "$server_pid"; wait "$server_pid" 2>/dev/null || true; server_pid=
status=0; out=$("$latchkey" passkey login "${laptop[@]}") || status=$?
expect_failure "$status" 1 client.transport "$out"
grep -q "cannot reach the server" <<<"$out" || fail "the transport error does not say the server is unreachable: $out"
status=0; out=$("$latchkey" passkey remove "${laptop[@]}" -- "$id") || status=$?
expect_failure "$status" 1 client.transport "$out"
[ "$("$latchkey" passkey list --profile conformance "${laptop[@]}" | json local.0.id)" = "$id" ] || fail "remove with the server down dropped the local passkey"

echo "passkey serve: register, login (named and username-less), list, rename, add and remove against latchkey serve (native and conformance) passed"
