// swift-tools-version: 6.1
import PackageDescription

let package = Package(
    name: "Latchkey",
    platforms: [.macOS(.v14), .iOS(.v17)],
    products: [
        .library(name: "CBOR", targets: ["CBOR"]),
        .library(name: "WebAuthn", targets: ["WebAuthn"]),
        .library(name: "VirtualAuthenticator", targets: ["VirtualAuthenticator"]),
        .executable(name: "latchkey", targets: ["latchkey"]),
    ],
    dependencies: [
        .package(url: "https://github.com/apple/swift-crypto.git", from: "4.5.2"),
        .package(url: "https://github.com/apple/swift-certificates.git", from: "1.21.1"),
        .package(url: "https://github.com/apple/swift-asn1.git", from: "1.7.4"),
        .package(url: "https://github.com/apple/swift-argument-parser.git", from: "1.8.2"),
    ],
    targets: [
        .target(name: "CBOR"),
        .target(
            name: "WebAuthn",
            dependencies: [
                "CBOR",
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
                "WebAuthn", "CBOR", "VirtualAuthenticator",
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
                .product(name: "Crypto", package: "swift-crypto"),
                .product(name: "CryptoExtras", package: "swift-crypto"),
                .product(name: "X509", package: "swift-certificates"),
                .product(name: "SwiftASN1", package: "swift-asn1"),
            ]
        ),
        .executableTarget(name: "latchkey", dependencies: ["LatchkeyCLI"]),
        .testTarget(name: "CBORTests", dependencies: ["CBOR"]),
        .testTarget(
            name: "WebAuthnTests",
            dependencies: ["WebAuthn", "CBOR", "VirtualAuthenticator",
                           .product(name: "Crypto", package: "swift-crypto"),
                           .product(name: "X509", package: "swift-certificates")],
            resources: [.copy("Fixtures")]
        ),
        .testTarget(name: "VirtualAuthenticatorTests", dependencies: ["VirtualAuthenticator", "WebAuthn", "CBOR", .product(name: "Crypto", package: "swift-crypto"), .product(name: "X509", package: "swift-certificates")]),
        .testTarget(
            name: "LatchkeyCLITests",
            dependencies: ["LatchkeyCLI", "WebAuthn", "CBOR", .product(name: "Crypto", package: "swift-crypto")],
            resources: [.copy("Fixtures")]
        ),
    ],
    swiftLanguageModes: [.v6]
)
