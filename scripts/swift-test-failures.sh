#!/usr/bin/env bash
# Prints the failures in a `swift test` log (its last 80 lines of them): Swift Testing's `✘` lines with the detail lines
# under them (indented, or starting with `↳`), and XCTest's `error:` lines. scripts/test.sh prints them again at the
# end of its output, so the end of a CI log names what failed.
#
#   scripts/swift-test-failures.sh LOG
set -euo pipefail
awk '/^✘ / { print; detail = 1; next } detail && /^( |↳)/ { print; next } { detail = 0 } /: error: / { print }' "${1:?usage: scripts/swift-test-failures.sh LOG}" | tail -n 80
