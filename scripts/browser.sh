#!/usr/bin/env bash
# The browser end-to-end tests in headless Chromium: the web page (Tests/Browser/browser_flow.py), passwords to
# passkeys on it (Tests/Browser/password_flow.py), then the hybrid-app passkey bridge (Tests/Browser/bridge_flow.py:
# window.latchkeyBridge against `latchkey passkey bridge`).
#
#   scripts/browser.sh PYTHON LATCHKEY    PYTHON: a python with selenium (scripts/python-env.sh makes one);
#                                         LATCHKEY: the built binary (`swift build --show-bin-path`/latchkey).
#
# Installs Debian's `chromium` and `chromium-driver` when chromedriver is missing (as root; quietly; once), then runs
# every test against the binary, each even when an earlier one fails. Builds nothing. Screenshots go to
# $LATCHKEY_ARTIFACTS (default .build/artifacts/browser). Exits 1 when any test fails; each prints its summary.
set -euo pipefail
python=${1:?usage: scripts/browser.sh PYTHON LATCHKEY}
latchkey=${2:?usage: scripts/browser.sh PYTHON LATCHKEY}
cd "$(dirname "$0")/.."

log() { echo "browser.sh: $*" >&2; }

ensure_chromium_installed() {
    if command -v chromedriver >/dev/null 2>&1 && command -v chromium >/dev/null 2>&1; then
        return 0
    fi
    if [[ $EUID -ne 0 ]]; then
        log "error: chromium/chromedriver not found; install Debian's chromium and chromium-driver (as root: apt-get install -y chromium chromium-driver)"
        exit 1
    fi
    log "installing Debian's chromium and chromium-driver"
    export DEBIAN_FRONTEND=noninteractive
    local output
    output=$( { apt-get update -q && apt-get install -y -q chromium chromium-driver; } 2>&1) \
        || { echo "$output" | tail -n 20 >&2; log "error: apt-get install failed"; exit 1; }
}

ensure_chromium_installed
[ -x "$latchkey" ] || { log "error: $latchkey is not an executable; build first (swift build)"; exit 1; }
chromedriver=$(command -v chromedriver)
status=0
"$python" Tests/Browser/browser_flow.py "$latchkey" "$chromedriver" || { log "error: the web page test failed"; status=1; }
"$python" Tests/Browser/password_flow.py "$latchkey" "$chromedriver" || { log "error: the password test failed"; status=1; }
"$python" Tests/Browser/bridge_flow.py "$latchkey" "$chromedriver" || { log "error: the passkey bridge test failed"; status=1; }
exit "$status"
