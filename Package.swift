// swift-tools-version: 6.1
import PackageDescription

let package = Package(
    name: "Latchkey",
    platforms: [.macOS(.v14), .iOS(.v17)],
    products: [
        .library(name: "CBOR", targets: ["CBOR"]),
        .library(name: "ByteEncoding", targets: ["ByteEncoding"]),
        .library(name: "WebAuthn", targets: ["WebAuthn"]),
        .library(name: "VirtualAuthenticator", targets: ["VirtualAuthenticator"]),
        .library(name: "LatchkeyStore", targets: ["LatchkeyStore"]),
        .library(name: "LatchkeyAPI", targets: ["LatchkeyAPI"]),
        .library(name: "LatchkeyServer", targets: ["LatchkeyServer"]),
        .library(name: "AppleSignIn", targets: ["AppleSignIn"]),
        .library(name: "AppleStandIn", targets: ["AppleStandIn"]),
        .library(name: "LatchkeyClient", targets: ["LatchkeyClient"]),
        .library(name: "VirtualAuthenticatorClient", targets: ["VirtualAuthenticatorClient"]),
        .executable(name: "latchkey", targets: ["latchkey"]),
    ],
    dependencies: [
        .package(url: "https://github.com/apple/swift-crypto.git", from: "4.5.2"),
        .package(url: "https://github.com/apple/swift-certificates.git", from: "1.21.1"),
        .package(url: "https://github.com/apple/swift-asn1.git", from: "1.7.4"),
        .package(url: "https://github.com/apple/swift-argument-parser.git", from: "1.8.2"),
        .package(url: "https://github.com/groue/GRDB.swift.git", from: "7.10.0"),
        .package(url: "https://github.com/vapor/postgres-nio.git", from: "1.33.2"),
        .package(url: "https://github.com/swift-server/swift-service-lifecycle.git", from: "2.13.0"),
        .package(url: "https://github.com/apple/swift-log.git", from: "1.16.2"),
        .package(url: "https://github.com/swift-server/async-http-client.git", from: "1.37.0"),
        .package(url: "https://github.com/hummingbird-project/hummingbird.git", from: "2.28.1"),
        .package(url: "https://github.com/apple/swift-nio.git", from: "2.101.2"),
        .package(url: "https://github.com/apple/swift-nio-extras.git", from: "1.35.2"),
        .package(url: "https://github.com/apple/swift-nio-ssl.git", from: "2.37.6"),
        .package(url: "https://github.com/apple/swift-http-types.git", from: "1.8.0"),
        .package(url: "https://github.com/apple/swift-metrics.git", from: "2.13.0"),
        .package(url: "https://github.com/swift-server/swift-prometheus.git", from: "2.4.1"),
        .package(url: "https://github.com/swiftlang/swift-docc-plugin", from: "1.5.0"),
    ],
    targets: [
        .target(name: "CBOR", dependencies: ["ByteEncoding"]),
        .target(name: "ByteEncoding"),
        .target(
            name: "WebAuthn",
            dependencies: [
                "CBOR", "ByteEncoding",
                .product(name: "Crypto", package: "swift-crypto"),
                .product(name: "CryptoExtras", package: "swift-crypto"),
                .product(name: "X509", package: "swift-certificates"),
                .product(name: "SwiftASN1", package: "swift-asn1"),
            ]
        ),
        .target(
            name: "VirtualAuthenticator",
            dependencies: [
                "WebAuthn", "CBOR",
                .product(name: "Crypto", package: "swift-crypto"),
                .product(name: "CryptoExtras", package: "swift-crypto"),
                .product(name: "X509", package: "swift-certificates"),
                .product(name: "SwiftASN1", package: "swift-asn1"),
            ]
        ),
        .target(
            name: "LatchkeyCLI",
            dependencies: [
                "WebAuthn", "CBOR", "VirtualAuthenticator", "VirtualAuthenticatorClient", "AppleSignIn",
                "LatchkeyClient", "LatchkeyAPI", "LatchkeyServer", "LatchkeyStore",
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
                .product(name: "AsyncHTTPClient", package: "async-http-client"),
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "NIOHTTP1", package: "swift-nio"),
                .product(name: "NIOPosix", package: "swift-nio"),
                .product(name: "Logging", package: "swift-log"),
                .product(name: "Crypto", package: "swift-crypto"),
                .product(name: "CryptoExtras", package: "swift-crypto"),
                .product(name: "X509", package: "swift-certificates"),
                .product(name: "SwiftASN1", package: "swift-asn1"),
            ]
        ),
        .executableTarget(name: "latchkey", dependencies: ["LatchkeyCLI"]),
        .target(
            name: "LatchkeyStore",
            dependencies: [
                .product(name: "GRDB", package: "GRDB.swift"),
                .product(name: "PostgresNIO", package: "postgres-nio"),
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "NIOPosix", package: "swift-nio"),
                .product(name: "ServiceLifecycle", package: "swift-service-lifecycle"),
                .product(name: "Logging", package: "swift-log"),
            ]
        ),
        .target(
            name: "AppleSignIn",
            dependencies: [
                "ByteEncoding",
                .product(name: "Crypto", package: "swift-crypto"),
                .product(name: "CryptoExtras", package: "swift-crypto"),
                .product(name: "AsyncHTTPClient", package: "async-http-client"),
                .product(name: "NIOCore", package: "swift-nio"),
            ]
        ),
        .target(
            name: "AppleStandIn",
            dependencies: [
                "AppleSignIn", "WebAuthn",
                .product(name: "Crypto", package: "swift-crypto"),
                .product(name: "CryptoExtras", package: "swift-crypto"),
                .product(name: "Hummingbird", package: "hummingbird"),
                .product(name: "Logging", package: "swift-log"),
                .product(name: "ServiceLifecycle", package: "swift-service-lifecycle"),
            ]
        ),
        .testTarget(
            name: "AppleSignInTests",
            dependencies: [
                "AppleSignIn", "AppleStandIn", "WebAuthn",
                .product(name: "Crypto", package: "swift-crypto"),
                .product(name: "CryptoExtras", package: "swift-crypto"),
                .product(name: "AsyncHTTPClient", package: "async-http-client"),
            ]
        ),
        // What an app links: the typed client, the bridge and the Apple adapters. The software authenticator is not in it.
        .target(
            name: "LatchkeyClient",
            dependencies: ["LatchkeyAPI", "WebAuthn", .product(name: "Crypto", package: "swift-crypto")]
        ),
        // The software authenticator as a LatchkeyClient `Authenticator`, with its credential stores (an encrypted
        // file, the Keychain): for the command line, tests and tools.
        .target(
            name: "VirtualAuthenticatorClient",
            dependencies: [
                "LatchkeyClient", "VirtualAuthenticator", "WebAuthn",
                .product(name: "Crypto", package: "swift-crypto"),
                .product(name: "CryptoExtras", package: "swift-crypto"),
            ]
        ),
        .target(name: "LatchkeyAPI", dependencies: ["WebAuthn"]),
        .target(
            name: "LatchkeyServer",
            dependencies: [
                "LatchkeyAPI", "LatchkeyStore", "WebAuthn",
                .product(name: "Hummingbird", package: "hummingbird"),
                .product(name: "HummingbirdCore", package: "hummingbird"),
                .product(name: "HTTPTypes", package: "swift-http-types"),
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "NIOHTTP1", package: "swift-nio"),
                .product(name: "NIOHTTPTypesHTTP1", package: "swift-nio-extras"),
                .product(name: "NIOPosix", package: "swift-nio"),
                .product(name: "NIOSSL", package: "swift-nio-ssl"),
                .product(name: "NIOConcurrencyHelpers", package: "swift-nio"),
                .product(name: "ServiceLifecycle", package: "swift-service-lifecycle"),
                .product(name: "Logging", package: "swift-log"),
                .product(name: "Metrics", package: "swift-metrics"),
                .product(name: "CoreMetrics", package: "swift-metrics"),
                .product(name: "Prometheus", package: "swift-prometheus"),
                .product(name: "Crypto", package: "swift-crypto"),
                .product(name: "AsyncHTTPClient", package: "async-http-client"),
                .product(name: "X509", package: "swift-certificates"),
                .product(name: "SwiftASN1", package: "swift-asn1"),
                "AppleSignIn",
            ],
            resources: [.copy("Resources/Web")],
            // The server's own async functions run on their caller's executor (SE-0461) instead of switching to the
            // generic executor on entry and after each call (docs/DESIGN.md). Hummingbird's middleware requirement
            // stays `@concurrent`.
            swiftSettings: [.enableUpcomingFeature("NonisolatedNonsendingByDefault")]
        ),
        .testTarget(
            name: "LatchkeyServerTests",
            dependencies: [
                "LatchkeyServer", "LatchkeyAPI", "LatchkeyStore", "WebAuthn", "VirtualAuthenticator", "CBOR",
                "MetadataTestSupport", "LatchkeyTestSupport",
                .product(name: "Hummingbird", package: "hummingbird"),
                .product(name: "HummingbirdTesting", package: "hummingbird"),
                .product(name: "HTTPTypes", package: "swift-http-types"),
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "NIOEmbedded", package: "swift-nio"),
                .product(name: "NIOHTTP1", package: "swift-nio"),
                .product(name: "NIOHTTPTypesHTTP1", package: "swift-nio-extras"),
                .product(name: "NIOPosix", package: "swift-nio"),
                .product(name: "Logging", package: "swift-log"),
                .product(name: "Crypto", package: "swift-crypto"),
                .product(name: "GRDB", package: "GRDB.swift"),
                "AppleStandIn", "AppleSignIn",
            ]
        ),
        .testTarget(name: "CBORTests", dependencies: ["CBOR", "ByteEncoding"]),
        .testTarget(
            name: "LatchkeyClientTests",
            dependencies: [
                "LatchkeyClient", "LatchkeyAPI", "WebAuthn", "VirtualAuthenticator", "VirtualAuthenticatorClient",
                "LatchkeyTestSupport",
                .product(name: "Crypto", package: "swift-crypto"),
            ]
        ),
        .testTarget(
            name: "LatchkeyStoreTests",
            dependencies: [
                "LatchkeyStore", "LatchkeyTestSupport",
                .product(name: "Logging", package: "swift-log"),
                .product(name: "GRDB", package: "GRDB.swift"), .product(name: "GRDBSQLite", package: "GRDB.swift"),
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "NIOPosix", package: "swift-nio"),
                .product(name: "PostgresNIO", package: "postgres-nio"),
            ]
        ),
        .testTarget(
            name: "WebAuthnTests",
            dependencies: [
                "WebAuthn", "CBOR", "VirtualAuthenticator", "MetadataTestSupport",
                .product(name: "Crypto", package: "swift-crypto"),
                .product(name: "X509", package: "swift-certificates"),
            ],
            resources: [.copy("Fixtures")]
        ),
        .target(
            name: "MetadataTestSupport",
            dependencies: [
                "WebAuthn",
                .product(name: "Crypto", package: "swift-crypto"),
                .product(name: "X509", package: "swift-certificates"),
                .product(name: "SwiftASN1", package: "swift-asn1"),
            ],
            path: "Tests/MetadataTestSupport"
        ),
        .testTarget(
            name: "VirtualAuthenticatorTests",
            dependencies: [
                "VirtualAuthenticator", "WebAuthn", "CBOR", .product(name: "Crypto", package: "swift-crypto"),
                .product(name: "X509", package: "swift-certificates"),
            ]),
        .testTarget(
            name: "LatchkeyCLITests",
            dependencies: [
                "LatchkeyCLI", "WebAuthn", "CBOR", "AppleSignIn", "LatchkeyAPI", "LatchkeyClient", "LatchkeyServer",
                "LatchkeyStore",
                "LatchkeyTestSupport", "VirtualAuthenticator",
                .product(name: "Crypto", package: "swift-crypto"),
                .product(name: "Hummingbird", package: "hummingbird"),
                .product(name: "HummingbirdTesting", package: "hummingbird"),
                .product(name: "Logging", package: "swift-log"),
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "NIOHTTP1", package: "swift-nio"),
                .product(name: "NIOPosix", package: "swift-nio"),
            ],
            resources: [.copy("Fixtures")]
        ),
        .target(
            name: "LatchkeyTestSupport",
            dependencies: [
                "LatchkeyStore",
                .product(name: "GRDB", package: "GRDB.swift"),
                .product(name: "PostgresNIO", package: "postgres-nio"),
                .product(name: "Logging", package: "swift-log"),
                .product(name: "Hummingbird", package: "hummingbird"),
                .product(name: "HummingbirdTesting", package: "hummingbird"),
            ],
            path: "Tests/LatchkeyTestSupport"
        ),
        .testTarget(
            name: "LatchkeyClientServerTests",
            dependencies: [
                "LatchkeyClient", "LatchkeyServer", "LatchkeyStore", "LatchkeyAPI", "LatchkeyTestSupport",
                "VirtualAuthenticator",
                "VirtualAuthenticatorClient", "WebAuthn",
                "AppleStandIn", "AppleSignIn",
                .product(name: "HummingbirdTesting", package: "hummingbird"),
                .product(name: "Crypto", package: "swift-crypto"),
            ]
        ),
    ],
    swiftLanguageModes: [.v6]
)

// libFuzzer targets (docs/FUZZING.md), declared only when LATCHKEY_FUZZ is set so normal builds are unchanged.
// Only Latchkey's own modules are instrumented (`-sanitize=fuzzer,address`): coverage is wanted where the parsers are, and
// the dependencies keep the objects of the normal build in the same scratch path, so a fuzz build compiles Latchkey's
// modules again and nothing else. `-enable-testing`: the targets reach internal parsers through `@testable import`.
if Context.environment["LATCHKEY_FUZZ"] != nil {
    let sanitizers: [SwiftSetting] = [.unsafeFlags(["-sanitize=fuzzer,address", "-enable-testing"])]
    let instrumented: Set<String> = [
        "CBOR", "ByteEncoding", "WebAuthn", "LatchkeyAPI", "LatchkeyStore", "AppleSignIn", "LatchkeyServer",
    ]
    for target in package.targets where instrumented.contains(target.name) {
        target.swiftSettings = (target.swiftSettings ?? []) + sanitizers
    }
    let linkFuzzer: [LinkerSetting] = [.unsafeFlags(["-sanitize=fuzzer,address"])]
    package.targets += [
        .target(name: "FuzzSupport", path: "Fuzz/FuzzSupport", swiftSettings: sanitizers),
        .executableTarget(
            name: "WebAuthnFuzz",
            dependencies: ["FuzzSupport", "CBOR", "WebAuthn", .product(name: "X509", package: "swift-certificates")],
            path: "Fuzz/WebAuthnFuzz",
            swiftSettings: sanitizers,
            linkerSettings: linkFuzzer
        ),
        .executableTarget(
            name: "ServerFuzz",
            dependencies: [
                "FuzzSupport", "AppleSignIn", "LatchkeyStore", "LatchkeyServer",
                .product(name: "Crypto", package: "swift-crypto"),
                .product(name: "CryptoExtras", package: "swift-crypto"),
                .product(name: "HTTPTypes", package: "swift-http-types"),
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "NIOEmbedded", package: "swift-nio"),
                .product(name: "NIOHTTP1", package: "swift-nio"),
            ],
            path: "Fuzz/ServerFuzz",
            swiftSettings: sanitizers,
            linkerSettings: linkFuzzer
        ),
    ]
}
