#!/usr/bin/env bash
# Builds the DocC documentation of the libraries (swift-docc-plugin), with every DocC warning an error: unresolved
# symbol links, undocumented parameters and the like fail the build. Archives go to .build/plugins/Swift-DocC/outputs.
# Usage: scripts/docs.sh [TARGET...]   (default: WebAuthn AppleSignIn LatchkeyClient LatchkeyServer)
set -euo pipefail
cd "$(dirname "$0")/.."
targets=("$@")
[ ${#targets[@]} -gt 0 ] || targets=(WebAuthn AppleSignIn LatchkeyClient LatchkeyServer)
arguments=()
for target in "${targets[@]}"; do arguments+=(--target "$target"); done
swift package generate-documentation "${arguments[@]}" --warnings-as-errors
