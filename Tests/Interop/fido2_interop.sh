#!/usr/bin/env bash
# Interop: `latchkey passkey register` / `login` against a relying party built on Yubico's python-fido2
# (Fido2Server, Tests/Interop/fido2_conformance_server.py) serving the FIDO conformance API on loopback.
# Usage: Tests/Interop/fido2_interop.sh PYTHON LATCHKEY   (PYTHON from scripts/python-env.sh; LATCHKEY the built binary)
# Exits 0 when every step behaves, 1 otherwise.
set -euo pipefail
python=${1:?usage: fido2_interop.sh PYTHON LATCHKEY}
latchkey=${2:?usage: fido2_interop.sh PYTHON LATCHKEY}
here=$(cd "$(dirname "$0")" && pwd)
work=$(mktemp -d /tmp/latchkey-fido2.XXXXXX)
server_pid=
cleanup() {
    if [ -n "$server_pid" ]; then kill "$server_pid" 2>/dev/null || true; fi
    rm -rf "$work"
}
trap cleanup EXIT

"$python" "$here/fido2_conformance_server.py" 0 "$work/port" >/dev/null &
server_pid=$!
for _ in $(seq 100); do [ -s "$work/port" ] && break; sleep 0.1; done
[ -s "$work/port" ] || { echo "fido2 interop: python-fido2 server did not start" >&2; exit 1; }
common=(--server "http://localhost:$(cat "$work/port")" --profile conformance --store "$work/credentials")

fail() { echo "fido2 interop: $1" >&2; exit 1; }
field() { "$python" -c 'import json,sys; print(json.load(sys.stdin).get(sys.argv[1], ""))' "$1"; }

registered=$("$latchkey" passkey register --username alice --display-name Alice "${common[@]}") || fail "register failed: $registered"
id=$(field credentialID <<<"$registered")
[ -n "$id" ] || fail "register printed no credential ID: $registered"

named=$("$latchkey" passkey login --username alice "${common[@]}") || fail "login --username failed: $named"
[ "$(field credentialID <<<"$named")" = "$id" ] || fail "login --username used another credential: $named"

usernameless=$("$latchkey" passkey login "${common[@]}") || fail "username-less login failed: $usernameless"
[ "$(field credentialID <<<"$usernameless")" = "$id" ] || fail "username-less login used another credential: $usernameless"

if again=$("$latchkey" passkey register --username alice "${common[@]}"); then
    fail "registering alice again should hit excludeCredentials: $again"
fi
grep -q '"authenticator.excludedCredential"' <<<"$again" || fail "second registration failed for another reason: $again"

echo "fido2 interop: register, login (named and username-less) and excludeCredentials against python-fido2 passed"
