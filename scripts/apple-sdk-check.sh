#!/usr/bin/env bash
# Type-checks the Apple-platform half of LatchkeyClient on Linux.
#
# Apple's SDK is not available here, so Tests/AppleSDK holds stand-in modules (AuthenticationServices, UIKit,
# AppKit, WebKit, Security) transcribed from Apple's documentation of the iOS 26 / macOS 26 SDK (see
# Tests/AppleSDK/README.md). For two configurations — ios (UIKit) and macos (AppKit) — this script
#   1. emits the stand-ins as modules into a temporary directory,
#   2. compiles every file of Sources/LatchkeyClient with them on the import path, so that
#      `#if canImport(AuthenticationServices)` etc. are true, down to SIL (`-emit-sil`: Sendable and data-race
#      diagnostics only appear there), in Swift 6 mode,
#   3. compiles every docs/snippets/*.swift (app-side code importing LatchkeyClient and the stand-ins) the same way,
#   4. compiles Tests/AppleSDK/KnownGood/*.swift (the stand-ins' own checks; they must compile),
# checks that every snippet appears verbatim in docs/CLIENT.md, and then proves the check bites: every
# Tests/AppleSDK/KnownBad/*.swift must be refused with the diagnostic its `// expect-error:` (and optional
# `// expect-note:`) header lines name, and a deliberately mis-transcribed copy of the stand-ins must make a
# KnownGood file fail.
#
# Usage: scripts/apple-sdk-check.sh [--config ios|macos] [--self-test-only | --docs-only]
#   LATCHKEY_SDK_CHECK_SOURCES=DIR  check DIR instead of Sources/LatchkeyClient (e.g. a copy while it is in flux)
# Exits 1, after printing the compiler's diagnostics, if anything fails.
set -euo pipefail
cd "$(dirname "$0")/.."
root=$PWD

sdk=Tests/AppleSDK
sources=${LATCHKEY_SDK_CHECK_SOURCES:-Sources/LatchkeyClient}
configs=(ios macos)
self_test_only=0
docs_only=0
while [ $# -gt 0 ]; do
    case "$1" in
        --config)
            [ $# -ge 2 ] || { echo "usage: $0 [--config ios|macos] [--self-test-only | --docs-only]" >&2; exit 2; }
            case "$2" in ios|macos) configs=("$2") ;; *) echo "apple-sdk-check: unknown config '$2' (ios or macos)" >&2; exit 2 ;; esac
            shift 2 ;;
        --self-test-only) self_test_only=1; shift ;;
        --docs-only) docs_only=1; shift ;;
        -h|--help) sed -n '2,21p' "$0" | sed 's/^# \{0,1\}//'; exit 0 ;;
        *) echo "usage: $0 [--config ios|macos] [--self-test-only | --docs-only]" >&2; exit 2 ;;
    esac
done

started=$(date +%s)
work=$(mktemp -d /tmp/apple-sdk-check.XXXXXX)
trap 'rm -rf "$work"' EXIT
mkdir -p "$work/log" "$work/rc"
failures=0

say() { printf 'apple-sdk-check: %s\n' "$*"; }
failed() {
    say "FAILED: $1"
    if [ $# -ge 2 ] && [ -s "$2" ]; then sed 's/^/    /' "$2"; fi
    failures=$((failures + 1))
}

# Runs a command in the background; its output goes to $work/log/NAME, its exit status to $work/rc/NAME.
background() {
    local name=$1
    shift
    ( if "$@" >"$work/log/$name" 2>&1; then echo 0; else echo 1; fi >"$work/rc/$name" ) &
}
succeeded() { [ "$(cat "$work/rc/$1")" = 0 ]; }

# --- Doc drift: every snippet is in docs/CLIENT.md, verbatim, under its marker ------------------------------------

shopt -s nullglob
snippets=(docs/snippets/*.swift)

check_docs() {
    local name block line snippet drift
    say "docs/CLIENT.md snippet markers (${#snippets[@]} snippet file(s))"
    mkdir -p "$work/doc"
    : >"$work/doc/index"
    if [ -f docs/CLIENT.md ]; then
        awk -v dir="$work/doc" '
            state == 2 {
                if ($0 == "```") { close(file); state = 0 } else { print > file }
                next
            }
            state == 1 {
                if ($0 == "```swift") {
                    count++; file = dir "/block" count; printf "" > file
                    print name "\t" file "\t" line >> (dir "/index"); state = 2
                } else {
                    print name "\t" line >> (dir "/nofence"); state = 0
                }
                next
            }
            /^<!-- snippet: [^ ]+ -->$/ { name = $3; line = NR; state = 1 }
            END { if (state == 2) print name >> (dir "/unterminated") }
        ' docs/CLIENT.md
    fi
    drift="$work/doc/problems"
    : >"$drift"
    if [ -f "$work/doc/nofence" ]; then
        while IFS=$'\t' read -r name line; do
            echo "docs/CLIENT.md:$line: the marker for $name is not directly followed by a \`\`\`swift fence" >>"$drift"
        done <"$work/doc/nofence"
    fi
    if [ -f "$work/doc/unterminated" ]; then
        echo "docs/CLIENT.md: the \`\`\`swift block after the marker for $(cat "$work/doc/unterminated") is never closed" >>"$drift"
    fi
    while IFS=$'\t' read -r name block line; do
        case "$name" in
            docs/snippets/*.swift) ;;
            *) echo "docs/CLIENT.md:$line: snippet marker names '$name', not a docs/snippets/*.swift file" >>"$drift"; continue ;;
        esac
        if [ ! -f "$name" ]; then
            echo "docs/CLIENT.md:$line: snippet marker names $name, which does not exist" >>"$drift"
        elif ! diff -q <(sed -e '$a\' "$name") "$block" >/dev/null; then
            echo "docs/CLIENT.md:$line: the block under the marker differs from $name:" >>"$drift"
            diff <(sed -e '$a\' "$name") "$block" | sed 's/^/    /' >>"$drift" || true
        fi
    done <"$work/doc/index"
    for snippet in "${snippets[@]}"; do
        if ! cut -f1 "$work/doc/index" | grep -qxF "$snippet"; then
            echo "$snippet is not in docs/CLIENT.md: add it as a \`\`\`swift block directly after the line <!-- snippet: $snippet -->" >>"$drift"
        fi
    done
    if [ -s "$drift" ]; then failed "docs/CLIENT.md and docs/snippets disagree" "$drift"; fi
}

if [ "$self_test_only" = 0 ]; then
    check_docs
fi
if [ "$docs_only" = 1 ]; then
    if [ "$failures" -gt 0 ]; then say "FAILED"; exit 1; fi
    say "ok (docs/CLIENT.md has all ${#snippets[@]} snippets, verbatim)"
    exit 0
fi

# --- The dependency modules -----------------------------------------------------------------------------------

say "swift build --target LatchkeyClient"
bin=$(swift build --show-bin-path)
modules=$bin/Modules
[ -d "$modules" ] || modules=$bin
if ! swift build --target LatchkeyClient >"$work/build.log" 2>&1; then
    # LatchkeyClient itself may not compile on Linux right now; what this check needs is its dependencies.
    missing=""
    for m in WebAuthn LatchkeyAPI VirtualAuthenticator Crypto CryptoExtras; do
        [ -e "$modules/$m.swiftmodule" ] || missing="$missing $m"
    done
    if [ -n "$missing" ]; then
        failed "swift build --target LatchkeyClient, and these dependency modules are missing:$missing" "$work/build.log"
        exit 1
    fi
    say "note: swift build --target LatchkeyClient failed on Linux (its own errors are swift build's to report); the dependency modules are built, continuing"
fi

# The flags SwiftPM passes when compiling LatchkeyClient: C module maps (swift-crypto's), -D flags, the package name.
manifest="$root/.build/$(basename "$bin").yaml"
clang_flags=()
defines=(-DSWIFT_PACKAGE -DDEBUG)
package_name=()
args_line=""
if [ -f "$manifest" ]; then
    args_line=$(awk '/"C\.LatchkeyClient-.*\.module":/ { found = 1 } found && /^ *args:/ { print; exit }' "$manifest")
fi
if [ -n "$args_line" ]; then
    while IFS= read -r map; do
        clang_flags+=(-Xcc "-fmodule-map-file=$map" -Xcc -I -Xcc "$(dirname "$map")")
    done < <(grep -o '"-fmodule-map-file=[^"]*"' <<<"$args_line" | sed 's/^"-fmodule-map-file=//; s/"$//')
    mapfile -t defines < <(grep -o '"-D[^"]*"' <<<"$args_line" | tr -d '"')
    name=$(grep -o '"-package-name","[^"]*"' <<<"$args_line" | sed 's/.*,"//; s/"$//' || true)
    [ -z "$name" ] || package_name=(-package-name "$name")
else
    for map in .build/checkouts/swift-crypto/Sources/*/include/module.modulemap; do
        [ -e "$map" ] || continue
        clang_flags+=(-Xcc "-fmodule-map-file=$root/$map" -Xcc -I -Xcc "$root/$(dirname "$map")")
    done
fi

cache="$root/.build/apple-sdk-check/ModuleCache"
mkdir -p "$cache"
swiftc_common=(swiftc -swift-version 6 -parse-as-library -diagnostic-style llvm -module-cache-path "$cache")

# Emits one stand-in module: standin DIR MODULE SOURCE_DIR (DIR is searched first, for the other stand-ins).
standin() {
    "${swiftc_common[@]}" -emit-module -warnings-as-errors -module-name "$2" -emit-module-path "$1/$2.swiftmodule" \
        -I "$1" -I "$modules" "${clang_flags[@]}" "$3"/*.swift
}

# Type-checks app-side files down to SIL against config directory DIR: check DIR MODULE_NAME FILE...
# (The SIL goes to a file in $work: never `-o /dev/null`, which swiftc replaces by renaming its output over it.)
check() {
    local dir=$1 name=$2
    shift 2
    "${swiftc_common[@]}" -emit-sil -wmo -module-name "$name" -I "$dir" -I "$modules" "${clang_flags[@]}" "$@" \
        -o "$(mktemp "$work/sil.XXXXXX")"
}

ui_module() { if [ "$1" = ios ]; then echo UIKit; else echo AppKit; fi; }

# --- The stand-ins, per configuration -------------------------------------------------------------------------

say "stand-ins: ${configs[*]} (AuthenticationServices, UIKit/AppKit, WebKit, Security)"
for cfg in "${configs[@]}"; do
    mkdir -p "$work/$cfg"
    background "$cfg-ui" standin "$work/$cfg" "$(ui_module "$cfg")" "$sdk/$(ui_module "$cfg")"
    background "$cfg-security" standin "$work/$cfg" Security "$sdk/Security"
done
wait
for cfg in "${configs[@]}"; do
    if succeeded "$cfg-ui" && succeeded "$cfg-security"; then
        background "$cfg-as" standin "$work/$cfg" AuthenticationServices "$sdk/AuthenticationServices"
        background "$cfg-webkit" standin "$work/$cfg" WebKit "$sdk/WebKit"
    fi
done
wait
ready=()
for cfg in "${configs[@]}"; do
    ok=1
    for part in ui security as webkit; do
        if [ ! -f "$work/rc/$cfg-$part" ] || ! succeeded "$cfg-$part"; then
            ok=0
            [ -f "$work/rc/$cfg-$part" ] && failed "the $cfg stand-in ($part) does not compile" "$work/log/$cfg-$part"
        fi
    done
    [ "$ok" = 1 ] && ready+=("$cfg")
done

# --- LatchkeyClient, then the snippets, per configuration -----------------------------------------------------

client_ok=()
if [ "$self_test_only" = 0 ] && [ "${#ready[@]}" -gt 0 ]; then
    mapfile -t client_files < <(find "$sources" -name '*.swift' | LC_ALL=C sort)
    say "LatchkeyClient (${#client_files[@]} files from $sources) for ${ready[*]}"
    for cfg in "${ready[@]}"; do
        background "$cfg-client" "${swiftc_common[@]}" -emit-sil -wmo -module-name LatchkeyClient "${package_name[@]}" \
            "${defines[@]}" -I "$work/$cfg" -I "$modules" "${clang_flags[@]}" \
            -emit-module-path "$work/$cfg/LatchkeyClient.swiftmodule" "${client_files[@]}" -o "$work/$cfg/LatchkeyClient.sil"
    done
    wait
    for cfg in "${ready[@]}"; do
        if succeeded "$cfg-client"; then
            client_ok+=("$cfg")
        else
            failed "LatchkeyClient does not type-check for $cfg ($(grep -c ': error:' "$work/log/$cfg-client" || true) errors)" \
                "$work/log/$cfg-client"
        fi
    done

    if [ "${#snippets[@]}" -gt 0 ]; then
        # All snippets of a configuration as one module first (one compile instead of one per snippet: this check
        # has to fit in a minute); only if that fails is each compiled on its own, which says which one is wrong.
        say "snippets: ${#snippets[@]} file(s) for ${client_ok[*]:-no configuration (LatchkeyClient did not compile)}"
        for cfg in "${client_ok[@]}"; do
            background "$cfg-snippets" check "$work/$cfg" Snippets "${snippets[@]}"
        done
        wait
        for cfg in "${client_ok[@]}"; do
            succeeded "$cfg-snippets" && continue
            for snippet in "${snippets[@]}"; do
                base=$(basename "$snippet" .swift)
                background "$cfg-snippet-$base" check "$work/$cfg" "Snippet_$(tr -c 'A-Za-z0-9_\n' _ <<<"$base")" "$snippet"
            done
            wait
            alone=0
            for snippet in "${snippets[@]}"; do
                base=$(basename "$snippet" .swift)
                if ! succeeded "$cfg-snippet-$base"; then
                    failed "$snippet does not type-check for $cfg" "$work/log/$cfg-snippet-$base"
                    alone=$((alone + 1))
                fi
            done
            # Each compiles on its own but not together (two snippets declare the same name): that is fine.
            [ "$alone" -gt 0 ] || say "note: the snippets only compile one by one for $cfg (they declare clashing names)"
        done
        if [ "${#client_ok[@]}" -lt "${#configs[@]}" ]; then
            say "note: snippets were not checked for the configurations where LatchkeyClient failed"
        fi
    fi
fi

# --- KnownGood: the stand-ins' own checks, which must compile -------------------------------------------------

known_good=("$sdk"/KnownGood/*.swift)
if [ "${#ready[@]}" -gt 0 ] && [ "${#known_good[@]}" -gt 0 ]; then
    say "known-good: ${#known_good[@]} file(s) for ${ready[*]}"
    for cfg in "${ready[@]}"; do
        background "$cfg-known-good" check "$work/$cfg" KnownGood "${known_good[@]}"
    done
    wait
    for cfg in "${ready[@]}"; do
        succeeded "$cfg-known-good" || failed "Tests/AppleSDK/KnownGood does not type-check for $cfg" "$work/log/$cfg-known-good"
    done
fi

# --- Self-test: the check bites --------------------------------------------------------------------------------

# Every KnownBad file must fail to compile (in the first configuration, ios unless --config macos) with each
# diagnostic its header names.
known_bad=("$sdk"/KnownBad/*.swift)
refused=0
bite_cfg=${ready[0]:-}
if [ -n "$bite_cfg" ] && [ "${#known_bad[@]}" -gt 0 ]; then
    say "self-test: ${#known_bad[@]} known-bad file(s) must be refused ($bite_cfg)"
    for bad in "${known_bad[@]}"; do
        background "bad-$(basename "$bad" .swift)" check "$work/$bite_cfg" KnownBad "$bad"
    done
    wait
    for bad in "${known_bad[@]}"; do
        name="bad-$(basename "$bad" .swift)"
        log="$work/log/$name"
        if ! grep -q '^// expect-error: ' "$bad"; then
            failed "$bad has no '// expect-error: <text>' header line"
            continue
        fi
        if succeeded "$name"; then
            failed "$bad compiled, but it must be refused with: $(sed -n 's#^// expect-error: ##p' "$bad" | head -1)"
            continue
        fi
        missed=""
        while IFS= read -r expectation; do
            kind=${expectation%%:*}
            text=${expectation#*: }
            grep ": $kind: " "$log" | grep -qF -- "$text" || missed="$missed
    expected $kind: $text"
        done < <(sed -n 's#^// expect-\(error\|note\): #\1: #p' "$bad")
        if [ -n "$missed" ]; then
            failed "$bad was refused, but not with the expected diagnostics:$missed" "$log"
        else
            refused=$((refused + 1))
        fi
    done
fi

# Mutation: mis-transcribe one declaration in a copy of the stand-ins and show that a KnownGood file then fails:
# `ASAuthorizationPublicKeyCredentialAssertion.userID` is `Data!`; as `Data?`, KnownGood/AssertionFields.swift's
# `let userHandle: Data = assertion.userID` no longer type-checks.
if [ -n "$bite_cfg" ]; then
    say "self-test: mutation (userID: Data! -> Data?) must break KnownGood/AssertionFields.swift ($bite_cfg)"
    mutant="$work/mutant"
    mkdir -p "$mutant/src" "$mutant/$bite_cfg"
    cp "$sdk"/AuthenticationServices/*.swift "$mutant/src/"
    cp "$work/$bite_cfg/$(ui_module "$bite_cfg").swiftmodule" "$work/$bite_cfg/Security.swiftmodule" "$mutant/$bite_cfg/"
    sed -i 's/userID: Data!/userID: Data?/g' "$mutant/src/"*.swift
    if ! grep -q 'userID: Data?' "$mutant/src/"*.swift; then
        failed "the mutation no longer applies (no 'userID: Data!' in $sdk/AuthenticationServices): update the self-test"
    elif ! standin "$mutant/$bite_cfg" AuthenticationServices "$mutant/src" >"$work/log/mutant-as" 2>&1; then
        failed "the mutated AuthenticationServices stand-in does not compile" "$work/log/mutant-as"
    elif check "$mutant/$bite_cfg" KnownGood "$sdk/KnownGood/AssertionFields.swift" >"$work/log/mutant" 2>&1; then
        failed "KnownGood/AssertionFields.swift still compiles against the mutated stand-in: the check does not see the declaration"
    elif ! grep -qF "value of optional type 'Data?' must be unwrapped" "$work/log/mutant"; then
        failed "the mutated stand-in broke KnownGood/AssertionFields.swift, but not as expected" "$work/log/mutant"
    fi
fi

# --- Summary -------------------------------------------------------------------------------------------------------

elapsed=$(($(date +%s) - started))
if [ "$failures" -gt 0 ]; then
    say "FAILED ($failures problem(s); ${elapsed}s)"
    exit 1
fi
joined=$(IFS=', '; echo "${configs[*]}")
joined=${joined//,/, }
if [ "$self_test_only" = 1 ]; then
    say "ok (self-test, $joined: ${#known_good[@]} known-good files compile; $refused known-bad files refused; mutation caught; ${elapsed}s)"
else
    say "ok ($joined: LatchkeyClient + ${#snippets[@]} snippets; $refused known-bad files refused; mutation caught; ${elapsed}s)"
fi
