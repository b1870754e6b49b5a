#!/usr/bin/env bash
# Type-checks, on Linux, everything an iOS or macOS app builds from this package, as an Apple platform would.
#
# Apple's SDK is not available here, so Tests/AppleSDK holds stand-in modules (CryptoKit's ML-DSA,
# AuthenticationServices, UIKit, AppKit, WebKit, Security, Combine, SwiftUI) transcribed from Apple's documentation
# of the iOS 26 / macOS 26 SDK (see Tests/AppleSDK/README.md). The script
#   1. builds the client's whole dependency closure from source, as SwiftPM builds it for an Apple target: a CryptoKit
#      stand-in made from swift-crypto's own API, swift-crypto's `Crypto` as on Apple platforms (a re-export of
#      CryptoKit), CryptoExtras, SwiftASN1, X509, then CBOR, ByteEncoding, WebAuthn, LatchkeyAPI and
#      VirtualAuthenticator (to SIL, in Swift 6 mode). It does so twice: against CryptoKit as Xcode 16.3's SDK has it
#      (version 241.100.42, no ML-DSA) and as Xcode 26's has it (324.0.4, ML-DSA from iOS 26 / macOS 26);
#   2. compiles Sources/WebAuthn/Crypto/MLDSA.swift (the package's only use of ML-DSA) for arm64-apple-ios in
#      Embedded Swift, whose standard library is the one iOS library on Linux, so that availability is checked against
#      a deployment target;
#   3. for two configurations, ios (UIKit) and macos (AppKit), emits the UI stand-ins and compiles LatchkeyClient,
#      VirtualAuthenticatorClient, every docs/snippets/*.swift, the example app (Examples/PasskeyApp) and
#      Tests/AppleSDK/KnownGood/*.swift against them, down to SIL (`-emit-sil`: Sendable and data-race diagnostics
#      only appear there); LatchkeyClient also against the Xcode 16.3 closure;
# checks that every snippet appears verbatim in docs/CLIENT.md and that nothing but MLDSA.swift asks
# `canImport(CryptoKit`, and then proves the check bites: every Tests/AppleSDK/KnownBad/*.swift must be refused with
# the diagnostic its `// expect-error:` (and optional `// expect-note:`) header lines name; a mis-transcribed copy of
# the AuthenticationServices stand-in must make a KnownGood file fail; WebAuthn with its ML-DSA gate removed must fail
# against Xcode 16.3's CryptoKit; and MLDSA.swift without its availability checks must fail for iOS.
#
# Usage: scripts/apple-sdk-check.sh [--config ios|macos] [--self-test-only | --docs-only]
#   LATCHKEY_SDK_CHECK_SOURCES=DIR  check DIR instead of Sources/LatchkeyClient (e.g. a copy while it is in flux)
# It needs the package's dependencies checked out (`swift package resolve`, which it runs).
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
        -h|--help) sed -n '2,30p' "$0" | sed 's/^# \{0,1\}//'; exit 0 ;;
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

# --- What the check reads ---------------------------------------------------------------------------------------

swift package resolve >"$work/resolve.log" 2>&1 || { failed "swift package resolve" "$work/resolve.log"; exit 1; }
checkouts=$root/.build/checkouts
for dep in swift-crypto swift-asn1 swift-certificates; do
    [ -d "$checkouts/$dep/Sources" ] || { failed "$checkouts/$dep is missing after swift package resolve"; exit 1; }
done
clang_flags=()
for c in CXKCPShims CXKCP CCryptoBoringSSLShims CCryptoBoringSSL; do
    clang_flags+=(-Xcc "-fmodule-map-file=$checkouts/swift-crypto/Sources/$c/include/module.modulemap"
        -Xcc -I -Xcc "$checkouts/swift-crypto/Sources/$c/include")
done
cache="$root/.build/apple-sdk-check/ModuleCache"
mkdir -p "$cache"
swiftc_common=(swiftc -swift-version 6 -parse-as-library -diagnostic-style llvm -module-cache-path "$cache" -DSWIFT_PACKAGE)
package_name=(-package-name latchkey)
sources_of() { find "$@" -name '*.swift' | LC_ALL=C sort; }

# Only MLDSA.swift may ask `canImport(CryptoKit`: once a plain `canImport(CryptoKit)` has been evaluated in a compile,
# the compiler loses CryptoKit's version and takes MLDSA.swift's versioned gate as true (see its header).
if [ "$docs_only" = 0 ] && [ "$self_test_only" = 0 ]; then
    say "lint: canImport(CryptoKit only in Sources/WebAuthn/Crypto/MLDSA.swift"
    grep -rn 'canImport(CryptoKit' Sources Examples docs/snippets | grep -v '^Sources/WebAuthn/Crypto/MLDSA.swift:' \
        >"$work/log/lint" && failed "canImport(CryptoKit outside MLDSA.swift" "$work/log/lint"
fi

# --- 1. The dependency closure, from source, per CryptoKit ----------------------------------------------------------
# Each closure's dependencies (swift-crypto, SwiftASN1, X509: declarations only, their bodies skipped) go to
# $deps/VARIANT, kept between runs under a key of what they are made from; this package's modules, type-checked to SIL,
# go to $work/VARIANT.

deps_key=$({ swiftc --version 2>&1; cat Package.resolved 2>/dev/null; cat "$sdk/CryptoKit/MLDSA.swift" "$0"; } | sha256sum | cut -c1-16)
deps="$root/.build/apple-sdk-check/dependencies-$deps_key"
variant=xcode26   # the closure check and standin compile against; `variant=xcode16 check …` for the other
closure_paths() { printf '%s\n' -I "$work/$variant" -I "$deps/$variant" -I "$deps/shared"; }

dependency() { # dependency DIR NAME SOURCE_DIR [FLAG | FILE]...: a dependency's module, declarations only
    local dir=$1 name=$2 files
    mapfile -t files < <(sources_of "$3")
    shift 3
    "${swiftc_common[@]}" -emit-module -suppress-warnings -experimental-skip-non-inlinable-function-bodies \
        -module-name "$name" -emit-module-path "$dir/$name.swiftmodule" -I "$dir" -I "$(dirname "$dir")/shared" \
        "${clang_flags[@]}" "$@" "${files[@]}"
}
ours() { # ours DIR NAME SOURCE_DIR: one of this package's modules, type-checked to SIL, its module emitted into DIR
    local dir=$1 name=$2 files paths
    mapfile -t files < <(sources_of "$3")
    mapfile -t paths < <(closure_paths)
    "${swiftc_common[@]}" -emit-sil -wmo -module-name "$name" "${package_name[@]}" -emit-module-path "$dir/$name.swiftmodule" \
        -I "$dir" "${paths[@]}" "${clang_flags[@]}" "${files[@]}" -o "$dir/$name.sil"
}

# The CryptoKit stand-in is swift-crypto's `Crypto` built with its own implementations (as on Linux) under
# CryptoKit's name, without ML-DSA; the Xcode 26 one adds Tests/AppleSDK/CryptoKit/MLDSA.swift, ML-DSA as Apple
# declares it. The real CryptoKit's version is what `canImport(CryptoKit, _version:)` reads.
build_shared() { # build_shared OUT
    local kit_sources="$1/src/CryptoKit"
    mkdir -p "$1/shared" "$kit_sources"
    cp -R "$checkouts/swift-crypto/Sources/Crypto/." "$kit_sources/"
    find "$kit_sources" -name '*.swift' -print0 | xargs -0 sed -i -E 's/\bCrypto\./CryptoKit./g'
    find "$kit_sources" -name '*MLDSA*' -delete
    dependency "$1/shared" CryptoBoringWrapper "$checkouts/swift-crypto/Sources/CryptoBoringWrapper" -package-name swift_crypto &&
        dependency "$1/shared" SwiftASN1 "$checkouts/swift-asn1/Sources/SwiftASN1" -package-name swift_asn1 -enable-upcoming-feature ExistentialAny &&
        dependency "$1/shared" _CertificateInternals "$checkouts/swift-certificates/Sources/_CertificateInternals" -package-name swift_certificates
}
build_dependencies() { # build_dependencies OUT VARIANT (xcode16 | xcode26)
    local dir="$1/$2" version mldsa=()
    mkdir -p "$dir"
    if [ "$2" = xcode26 ]; then version=324.0.4; mldsa=("$root/$sdk/CryptoKit/MLDSA.swift"); else version=241.100.42; fi
    dependency "$dir" CryptoKit "$1/src/CryptoKit" -package-name swift_crypto -DCRYPTO_IN_SWIFTPM -DCRYPTO_IN_SWIFTPM_FORCE_BUILD_API \
        -user-module-version "$version" "${mldsa[@]}" &&
        dependency "$dir" Crypto "$checkouts/swift-crypto/Sources/Crypto" -package-name swift_crypto -DCRYPTO_IN_SWIFTPM &&
        dependency "$dir" CryptoExtras "$checkouts/swift-crypto/Sources/CryptoExtras" -package-name swift_crypto -DCRYPTO_IN_SWIFTPM &&
        dependency "$dir" _CryptoExtras "$checkouts/swift-crypto/Sources/_CryptoExtras" -package-name swift_crypto -DCRYPTO_IN_SWIFTPM &&
        dependency "$dir" X509 "$checkouts/swift-certificates/Sources/X509" -package-name swift_certificates \
            -enable-upcoming-feature MemberImportVisibility
}
build_ours() { # build_ours VARIANT
    mkdir -p "$work/$1"
    for module in ByteEncoding CBOR WebAuthn LatchkeyAPI VirtualAuthenticator; do
        variant=$1 ours "$work/$1" "$module" "Sources/$module" || return 1
    done
}
closures=(xcode16 xcode26)
closure_ok=()
if [ "$docs_only" = 0 ]; then
    if [ -f "$deps/complete" ]; then
        say "dependencies (swift-crypto as on Apple platforms, SwiftASN1, X509): kept from an earlier run in ${deps#"$root/"}"
    else
        say "dependencies from source: swift-crypto (as on Apple platforms), SwiftASN1, X509, for each CryptoKit"
        fresh="$deps.partial.$$"
        rm -rf "$root/.build/apple-sdk-check/dependencies-"*
        if ! build_shared "$fresh" >"$work/log/shared" 2>&1; then
            failed "the shared dependencies (CryptoBoringWrapper, SwiftASN1, _CertificateInternals) do not compile" "$work/log/shared"
            exit 1
        fi
        for v in "${closures[@]}"; do background "deps-$v" build_dependencies "$fresh" "$v"; done
        wait
        for v in "${closures[@]}"; do
            succeeded "deps-$v" || { failed "the dependencies do not compile against CryptoKit as $v's SDK has it" "$work/log/deps-$v"; exit 1; }
        done
        rm -rf "$fresh/src"
        touch "$fresh/complete"
        mv "$fresh" "$deps"
    fi
    say "this package's closure: CBOR, ByteEncoding, WebAuthn, LatchkeyAPI, VirtualAuthenticator, for each CryptoKit"
    for v in "${closures[@]}"; do background "closure-$v" build_ours "$v"; done
    wait
    for v in "${closures[@]}"; do
        if succeeded "closure-$v"; then
            closure_ok+=("$v")
        else
            failed "the closure does not compile against CryptoKit as $v's SDK has it" "$work/log/closure-$v"
        fi
    done
    [ "${#closure_ok[@]}" -eq 2 ] || { say "FAILED ($failures problem(s))"; exit 1; }
fi

# --- 2. ML-DSA's availability, for iOS -----------------------------------------------------------------------------
# Embedded Swift's standard library is built for arm64-apple-ios (from iOS 18, the nearest to the package's iOS 17),
# so availability is checked as on iOS: an ML-DSA type used outside `if #available(iOS 26, …)` is an error.

embedded=(swiftc -swift-version 6 -parse-as-library -diagnostic-style llvm -module-cache-path "$cache" -suppress-warnings
    -enable-experimental-feature Embedded -wmo -target arm64-apple-ios18.0)
embedded_kit() {
    mkdir -p "$work/embedded"
    echo '@_exported import CryptoKit' >"$work/embedded/Crypto.swift"
    "${embedded[@]}" -emit-module -module-name CryptoKit -user-module-version 324.0.4 \
        -emit-module-path "$work/embedded/CryptoKit.swiftmodule" "$root/Tests/AppleSDK/CryptoKit/MLDSA.swift" &&
        "${embedded[@]}" -emit-module -module-name Crypto -I "$work/embedded" \
            -emit-module-path "$work/embedded/Crypto.swiftmodule" "$work/embedded/Crypto.swift"
}
embedded_check() { "${embedded[@]}" -typecheck -module-name WebAuthn "${package_name[@]}" -I "$work/embedded" "$1"; }
embedded_ok=0
if [ "$docs_only" = 0 ]; then
    say "ML-DSA availability: Sources/WebAuthn/Crypto/MLDSA.swift for arm64-apple-ios (Embedded Swift)"
    if ! embedded_kit >"$work/log/embedded-kit" 2>&1; then
        failed "the Embedded CryptoKit stand-in does not compile" "$work/log/embedded-kit"
    elif [ "$self_test_only" = 0 ] && ! embedded_check Sources/WebAuthn/Crypto/MLDSA.swift >"$work/log/embedded" 2>&1; then
        failed "Sources/WebAuthn/Crypto/MLDSA.swift does not type-check for iOS" "$work/log/embedded"
    else
        embedded_ok=1
    fi
fi

# --- 3. The stand-ins, per configuration -----------------------------------------------------------------------------

# Emits one stand-in module: standin DIR MODULE SOURCE_DIR (DIR is searched first, for the other stand-ins).
standin() {
    local paths
    mapfile -t paths < <(closure_paths)
    "${swiftc_common[@]}" -emit-module -warnings-as-errors -module-name "$2" -emit-module-path "$1/$2.swiftmodule" \
        -I "$1" "${paths[@]}" "${clang_flags[@]}" "$3"/*.swift
}

# Type-checks app-side files down to SIL against config directory DIR: check DIR MODULE_NAME FILE...
# (The SIL goes to a file in $work: never `-o /dev/null`, which swiftc replaces by renaming its output over it.)
check() {
    local dir=$1 name=$2 paths
    shift 2
    mapfile -t paths < <(closure_paths)
    "${swiftc_common[@]}" -emit-sil -wmo -module-name "$name" "${package_name[@]}" -I "$dir" "${paths[@]}" \
        "${clang_flags[@]}" "$@" -o "$(mktemp "$work/sil.XXXXXX")"
}
# Like check, and emits the module into DIR for what imports it.
check_module() {
    local dir=$1 name=$2
    shift 2
    check "$dir" "$name" -emit-module-path "$dir/$name.swiftmodule" "$@"
}

ui_module() { if [ "$1" = ios ]; then echo UIKit; else echo AppKit; fi; }

say "stand-ins: ${configs[*]} (UIKit/AppKit, Security, Combine, AuthenticationServices, WebKit, SwiftUI)"
for cfg in "${configs[@]}"; do
    mkdir -p "$work/$cfg"
    background "$cfg-ui" standin "$work/$cfg" "$(ui_module "$cfg")" "$sdk/$(ui_module "$cfg")"
    background "$cfg-security" standin "$work/$cfg" Security "$sdk/Security"
    background "$cfg-combine" standin "$work/$cfg" Combine "$sdk/Combine"
done
wait
for cfg in "${configs[@]}"; do
    if succeeded "$cfg-ui" && succeeded "$cfg-security" && succeeded "$cfg-combine"; then
        background "$cfg-as" standin "$work/$cfg" AuthenticationServices "$sdk/AuthenticationServices"
        background "$cfg-webkit" standin "$work/$cfg" WebKit "$sdk/WebKit"
        background "$cfg-swiftui" standin "$work/$cfg" SwiftUI "$sdk/SwiftUI"
    fi
done
wait
ready=()
for cfg in "${configs[@]}"; do
    ok=1
    for part in ui security combine as webkit swiftui; do
        if [ ! -f "$work/rc/$cfg-$part" ] || ! succeeded "$cfg-$part"; then
            ok=0
            [ -f "$work/rc/$cfg-$part" ] && failed "the $cfg stand-in ($part) does not compile" "$work/log/$cfg-$part"
        fi
    done
    [ "$ok" = 1 ] && ready+=("$cfg")
done

# --- 4. LatchkeyClient, VirtualAuthenticatorClient, the snippets and the example app, per configuration -------------

app=Examples/PasskeyApp/Sources
client_ok=()
if [ "$self_test_only" = 0 ] && [ "${#ready[@]}" -gt 0 ]; then
    mapfile -t client_files < <(sources_of "$sources")
    mapfile -t vaclient_files < <(sources_of Sources/VirtualAuthenticatorClient)
    say "LatchkeyClient (${#client_files[@]} files from $sources) and VirtualAuthenticatorClient for ${ready[*]}"
    check_client() {
        check_module "$work/$1" LatchkeyClient "${client_files[@]}" &&
            check_module "$work/$1" VirtualAuthenticatorClient "${vaclient_files[@]}"
    }
    for cfg in "${ready[@]}"; do background "$cfg-client" check_client "$cfg"; done
    wait
    for cfg in "${ready[@]}"; do
        if succeeded "$cfg-client"; then
            client_ok+=("$cfg")
        else
            failed "LatchkeyClient or VirtualAuthenticatorClient does not type-check for $cfg ($(grep -c ': error:' "$work/log/$cfg-client" || true) errors)" \
                "$work/log/$cfg-client"
        fi
    done
    # LatchkeyClient against Xcode 16.3's CryptoKit too (iOS): an app built with an SDK that has no ML-DSA.
    mkdir -p "$work/ios-xcode16"
    cp "$work/ios"/*.swiftmodule "$work/ios-xcode16/" 2>/dev/null || true
    rm -f "$work/ios-xcode16/LatchkeyClient.swiftmodule" "$work/ios-xcode16/VirtualAuthenticatorClient.swiftmodule"
    if [[ " ${ready[*]} " == *" ios "* ]] && ! variant=xcode16 check "$work/ios-xcode16" LatchkeyClient \
        "${client_files[@]}" >"$work/log/ios-xcode16-client" 2>&1; then
        failed "LatchkeyClient does not type-check for ios against Xcode 16.3's CryptoKit" "$work/log/ios-xcode16-client"
    fi

    if [ "${#snippets[@]}" -gt 0 ]; then
        # All snippets of a configuration as one module first (one compile instead of one per snippet);
        # only if that fails is each compiled on its own, which says which one is wrong.
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
    fi

    say "example app: Examples/PasskeyApp (PasskeyAppCore, then the SwiftUI screens) for ${client_ok[*]:-no configuration}"
    mapfile -t app_core_files < <(sources_of "$app/PasskeyAppCore")
    mapfile -t app_files < <(sources_of "$app/PasskeyApp")
    check_app() {
        check_module "$work/$1" PasskeyAppCore "${app_core_files[@]}" && check "$work/$1" PasskeyApp "${app_files[@]}"
    }
    for cfg in "${client_ok[@]}"; do background "$cfg-app" check_app "$cfg"; done
    wait
    for cfg in "${client_ok[@]}"; do
        succeeded "$cfg-app" || failed "Examples/PasskeyApp does not type-check for $cfg" "$work/log/$cfg-app"
    done
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

# Mutations of ML-DSA's two gates, each of which must be caught: WebAuthn with the SDK gate always true must fail
# against Xcode 16.3's CryptoKit (as the package once did against the real iOS SDK), and MLDSA.swift without its
# `#available` guards must fail for iOS.
mldsa=Sources/WebAuthn/Crypto/MLDSA.swift
gate='#if canImport(CryptoKit, _version: 324.0.4) || !canImport(CryptoKit)'
if [ "$docs_only" = 0 ] && [ "${#closure_ok[@]}" -eq 2 ]; then
    say "self-test: WebAuthn with the ML-DSA gate removed must fail against Xcode 16.3's CryptoKit"
    mkdir -p "$work/ungated/src" "$work/ungated/out"
    cp -R Sources/WebAuthn "$work/ungated/src/"
    sed -i "s/^${gate//\//\\/}\$/#if true/" "$work/ungated/src/WebAuthn/Crypto/MLDSA.swift"
    if ! grep -qx '#if true' "$work/ungated/src/WebAuthn/Crypto/MLDSA.swift"; then
        failed "the ungated mutation no longer applies (no line '$gate' in $mldsa): update the self-test"
    elif variant=xcode16 ours "$work/ungated/out" WebAuthn "$work/ungated/src/WebAuthn" >"$work/log/ungated" 2>&1; then
        failed "WebAuthn with ML-DSA ungated still compiles against Xcode 16.3's CryptoKit: the check cannot see it"
    elif ! grep -qF "cannot find 'MLDSA65' in scope" "$work/log/ungated"; then
        failed "ungated WebAuthn failed, but not for want of MLDSA65" "$work/log/ungated"
    fi
fi
if [ "$docs_only" = 0 ] && [ "$embedded_ok" = 1 ]; then
    say "self-test: MLDSA.swift without its #available guards must fail for iOS"
    sed '/#available(iOS 26/d' "$mldsa" >"$work/unguarded.swift"
    if [ "$(grep -c '#available(iOS 26' "$mldsa")" -lt 2 ]; then
        failed "the unguarded mutation no longer applies (no #available(iOS 26 … lines in $mldsa): update the self-test"
    elif embedded_check "$work/unguarded.swift" >"$work/log/unguarded" 2>&1; then
        failed "MLDSA.swift without #available still type-checks for iOS: availability is not checked"
    elif ! grep -qF "'MLDSA65' is only available in iOS 26" "$work/log/unguarded"; then
        failed "unguarded MLDSA.swift failed, but not for ML-DSA's availability" "$work/log/unguarded"
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
    say "ok (self-test, $joined: ${#known_good[@]} known-good files compile; $refused known-bad files refused; 3 mutations caught; ${elapsed}s)"
else
    say "ok ($joined: the closure from source against CryptoKit without and with ML-DSA; LatchkeyClient, VirtualAuthenticatorClient, the example app, ${#snippets[@]} snippets; ML-DSA availability for iOS; $refused known-bad files refused; 3 mutations caught; ${elapsed}s)"
fi
