#!/usr/bin/env bash
# Builds and runs Latchkey's libFuzzer targets (docs/FUZZING.md).
#
#   scripts/fuzz.sh TARGET [SECONDS] [libFuzzer flags...]   run one target (default 60 s), corpus Fuzz/Corpus/TARGET
#   scripts/fuzz.sh --smoke [SECONDS]                        run every target briefly (default 12 s each, ~5 min); fails on a crash
#   scripts/fuzz.sh --list                                   list the targets
#   scripts/fuzz.sh --build                                  only build
#
# Everything runs under `nice -n 19`; builds go to .build-fuzz (LATCHKEY_FUZZ_JOBS=N limits their parallel jobs).
# New inputs found go to .build-fuzz/corpus/TARGET (uncommitted); crashes to .build-fuzz/crashes/TARGET-*.
set -euo pipefail
cd "$(dirname "$0")/.."

webauthn_targets="cbor authenticator-data attestation-object attestation-packed attestation-fido-u2f attestation-apple
attestation-tpm attestation-android-key attestation-android-safetynet attestation-compound tpm-structures
android-key-description cose-key client-data credential-json json-members safetynet-jws mds-blob certificate-chain"
server_targets="apple-jws store-url configuration"
jobs=()
if [ -n "${LATCHKEY_FUZZ_JOBS:-}" ]; then jobs=(-j "$LATCHKEY_FUZZ_JOBS"); fi

binary_for() {
    case " $(echo $webauthn_targets) " in *" $1 "*) echo WebAuthnFuzz; return ;; esac
    case " $server_targets " in *" $1 "*) echo ServerFuzz; return ;; esac
    echo "unknown fuzz target '$1' (scripts/fuzz.sh --list)" >&2
    exit 2
}

build() {
    # -enable-testing: the targets reach internal parsers through @testable import.
    for product in "$@"; do
        LATCHKEY_FUZZ=1 nice -n 19 swift build "${jobs[@]}" --scratch-path .build-fuzz --product "$product" \
            -Xswiftc -sanitize=fuzzer,address -Xswiftc -enable-testing 2>&1 | { grep -v "warning: Cannot export local symbol" || true; } >&2
    done
}

run() {  # run TARGET SECONDS [flags...]
    local target=$1 seconds=$2
    shift 2
    local binary
    binary=".build-fuzz/debug/$(binary_for "$target")"
    mkdir -p ".build-fuzz/corpus/$target" .build-fuzz/crashes "Fuzz/Corpus/$target"
    # -rss_limit_mb: a debug build with ASan and swift-certificates is large; -timeout: a hang is a finding.
    # -detect_leaks=0: LeakSanitizer flags Swift runtime and lazily initialized globals (e.g. the built-in roots).
    ASAN_OPTIONS="detect_leaks=0${ASAN_OPTIONS:+:$ASAN_OPTIONS}" LATCHKEY_FUZZ_TARGET=$target nice -n 19 "$binary" -max_total_time="$seconds" -timeout=10 -rss_limit_mb=4096 \
        -detect_leaks=0 -print_final_stats=1 -artifact_prefix=".build-fuzz/crashes/$target-" "$@" ".build-fuzz/corpus/$target" "Fuzz/Corpus/$target"
}

case "${1:-}" in
    --list)
        echo $webauthn_targets $server_targets | tr ' ' '\n'
        ;;
    --build)
        build WebAuthnFuzz ServerFuzz
        ;;
    --smoke)
        seconds=${2:-12}
        build WebAuthnFuzz ServerFuzz
        failed=""
        for target in $webauthn_targets $server_targets; do
            echo "== $target ($seconds s)"
            if ! run "$target" "$seconds" > ".build-fuzz/smoke-$target.log" 2>&1; then
                tail -n 60 ".build-fuzz/smoke-$target.log"
                failed="$failed $target"
            else
                grep -E "stat::number_of_executed_units|Done [0-9]+ runs" ".build-fuzz/smoke-$target.log" | tail -n 1
            fi
        done
        if [ -n "$failed" ]; then
            echo "error: fuzz targets failed:$failed (inputs in .build-fuzz/crashes/)"
            exit 1
        fi
        echo "fuzz smoke: every target ran $seconds s without a finding"
        ;;
    ""|-h|--help)
        sed -n '2,11p' "$0"
        ;;
    *)
        target=$1
        seconds=${2:-60}
        shift $(( $# >= 2 ? 2 : 1 ))
        product=$(binary_for "$target")
        build "$product"
        run "$target" "$seconds" "$@"
        ;;
esac
