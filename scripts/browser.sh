#!/usr/bin/env bash
# The web page's end-to-end test in headless Chromium (Tests/Browser/browser_flow.py).
#
#   scripts/browser.sh PYTHON LATCHKEY    PYTHON: a python with selenium (scripts/python-env.sh makes one);
#                                         LATCHKEY: the built binary (`swift build --show-bin-path`/latchkey).
#
# Installs Debian's `chromium` and `chromium-driver` when chromedriver is missing (as root; quietly; once), then runs
# the test against the binary. Builds nothing. Screenshots go to $LATCHKEY_ARTIFACTS (default .build/artifacts/browser).
# Exits with the test's status; prints one summary line.
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
exec "$python" Tests/Browser/browser_flow.py "$latchkey" "$(command -v chromedriver)"
