#!/usr/bin/env bash
# Builds and runs Latchkey's libFuzzer targets (docs/FUZZING.md).
#
#   scripts/fuzz.sh TARGET [SECONDS] [libFuzzer flags...]   run one target (default 60 s), corpus Fuzz/Corpus/TARGET
#   scripts/fuzz.sh --smoke [SECONDS]                        every target for SECONDS (default 20), debug build; fails on a finding
#   scripts/fuzz.sh --campaign RUNS [TARGET...]              every (or each named) target to RUNS executions, release build;
#                                                            a table of executions and findings in .build/fuzz/campaign.tsv
#   scripts/fuzz.sh --list                                   list the targets
#   scripts/fuzz.sh --build [debug|release]                  only build
#
# The fuzz build shares the normal scratch path (.build): only Latchkey's own modules are compiled again, instrumented
# (Package.swift, LATCHKEY_FUZZ), so the next normal build compiles them once more. The binaries are copied to
# .build/fuzz/bin-CONFIG, so a later build never changes a running fuzzer. Targets run LATCHKEY_FUZZ_PARALLEL at a time
# (default: one per core), each under `nice -n 19`. New inputs go to .build/fuzz/corpus/TARGET (uncommitted),
# crashes to .build/fuzz/crashes/TARGET-*, logs to .build/fuzz/logs/.
set -euo pipefail
cd "$(dirname "$0")/.."

webauthn_targets="cbor authenticator-data attestation-object attestation-packed attestation-fido-u2f attestation-apple
attestation-tpm attestation-android-key attestation-android-safetynet attestation-compound tpm-structures
android-key-description cose-key client-data credential-json json-members safetynet-jws mds-blob certificate-chain"
server_targets="apple-jws store-url configuration http1-request smtp"
all_targets=$(echo $webauthn_targets $server_targets)
parallel=${LATCHKEY_FUZZ_PARALLEL:-$(nproc)}
out=.build/fuzz

binary_for() {
    case " $(echo $webauthn_targets) " in *" $1 "*) echo WebAuthnFuzz; return ;; esac
    case " $server_targets " in *" $1 "*) echo ServerFuzz; return ;; esac
    echo "unknown fuzz target '$1' (scripts/fuzz.sh --list)" >&2
    exit 2
}

build() {  # build CONFIG PRODUCT...
    local config=$1
    shift
    mkdir -p "$out/bin-$config"
    for product in "$@"; do
        LATCHKEY_FUZZ=1 nice -n 19 swift build -c "$config" --product "$product" 2>&1 \
            | { grep -v "warning: Cannot export local symbol" || true; } >&2
        cp "$(swift build -c "$config" --show-bin-path)/$product" "$out/bin-$config/$product.new"
        mv -f "$out/bin-$config/$product.new" "$out/bin-$config/$product"
    done
}

run() {  # run CONFIG TARGET [libFuzzer flags...]
    local config=$1 target=$2
    shift 2
    mkdir -p "$out/corpus/$target" "$out/crashes" "Fuzz/Corpus/$target"
    # -rss_limit_mb: swift-certificates with ASan is large; -timeout: a hang is a finding.
    # detect_leaks=0: LeakSanitizer flags the Swift runtime's and lazily initialized globals' allocations (built-in roots).
    ASAN_OPTIONS="detect_leaks=0${ASAN_OPTIONS:+:$ASAN_OPTIONS}" LATCHKEY_FUZZ_TARGET=$target nice -n 19 \
        "$out/bin-$config/$(binary_for "$target")" -timeout=10 -rss_limit_mb=4096 -detect_leaks=0 -print_final_stats=1 \
        -artifact_prefix="$out/crashes/$target-" "$@" "$out/corpus/$target" "Fuzz/Corpus/$target"
}

stat() {  # stat LOG NAME: a libFuzzer final statistic
    sed -n "s/^stat::$2: *//p" "$1" | tail -n 1
}

# run_all CONFIG TARGETS LIBFUZZER-FLAGS: every target, `parallel` at a time; prints one line per target and returns
# non-zero if any found something.
run_all() {
    local config=$1 targets=$2 flags=$3 running=0 failed="" target
    mkdir -p "$out/logs"
    for target in $targets; do
        binary_for "$target" >/dev/null
        # shellcheck disable=SC2086
        ( if run "$config" "$target" $flags > "$out/logs/$target.log" 2>&1; then status=ok; else status=FINDING; fi
          log="$out/logs/$target.log"
          printf '%s\t%s\t%s\t%s\t%s\n' "$target" "$(stat "$log" number_of_executed_units)" \
              "$(stat "$log" average_exec_per_sec)" "$status" "$(ls "$out/corpus/$target" | wc -l)" ) &
        running=$((running + 1))
        if [ "$running" -ge "$parallel" ]; then wait -n || true; running=$((running - 1)); fi
    done
    wait
}

report() {  # report TSV: the table, then non-zero if a target found something
    awk -F'\t' '{ printf "%-32s %12s %8s %8s %s\n", $1, $2, $3, $4, $5 }' "$1"
    if grep -q FINDING "$1"; then
        echo "error: fuzz targets with a finding: $(awk -F'\t' '$4 == "FINDING" { printf "%s ", $1 }' "$1")(inputs in $out/crashes/, logs in $out/logs/)"
        return 1
    fi
}

case "${1:-}" in
    --list)
        echo "$all_targets" | tr ' ' '\n'
        ;;
    --build)
        build "${2:-debug}" WebAuthnFuzz ServerFuzz
        ;;
    --smoke)
        seconds=${2:-20}
        build debug WebAuthnFuzz ServerFuzz
        mkdir -p "$out"
        printf 'target\texecutions\texec/s\tresult\tcorpus found\n' > "$out/smoke.tsv"
        run_all debug "$all_targets" "-max_total_time=$seconds" | sort >> "$out/smoke.tsv"
        report "$out/smoke.tsv"
        echo "fuzz smoke: every target ran $seconds s without a finding"
        ;;
    --campaign)
        runs=${2:?"--campaign RUNS [TARGET...]"}
        shift 2
        targets=${*:-$all_targets}
        build release WebAuthnFuzz ServerFuzz
        mkdir -p "$out"
        printf 'target\texecutions\texec/s\tresult\tcorpus found\n' > "$out/campaign.tsv"
        run_all release "$targets" "-runs=$runs" >> "$out/campaign.tsv"
        report "$out/campaign.tsv"
        ;;
    ""|-h|--help)
        sed -n '2,16p' "$0"
        ;;
    *)
        target=$1
        seconds=${2:-60}
        shift $(( $# >= 2 ? 2 : 1 ))
        build debug "$(binary_for "$target")"
        run debug "$target" -max_total_time="$seconds" "$@"
        ;;
esac
