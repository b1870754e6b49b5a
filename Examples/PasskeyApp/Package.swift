// swift-tools-version: 6.1
// An iOS (and macOS) SwiftUI app that signs in to `latchkey serve` with LatchkeyClient: docs/CLIENT.md, "The example
// app", says how to run it from Xcode and what to set there. This package is what CI type-checks
// (scripts/apple-sdk-check.sh); it imports SwiftUI, so it builds only with Apple's SDKs.
import PackageDescription

let package = Package(
    name: "PasskeyApp",
    platforms: [.iOS(.v17), .macOS(.v14)],
    products: [.library(name: "PasskeyAppCore", targets: ["PasskeyAppCore"])],
    dependencies: [.package(name: "Latchkey", path: "../..")],
    targets: [
        // The app's SwiftUI screens: they show `Account` and call it.
        .executableTarget(
            name: "PasskeyApp",
            dependencies: ["PasskeyAppCore", .product(name: "LatchkeyAPI", package: "Latchkey")]
        ),
        // Everything but the screens: the account model on LatchkeyClient, the saved session, the sheets' window.
        .target(
            name: "PasskeyAppCore",
            dependencies: [
                .product(name: "LatchkeyClient", package: "Latchkey"),
                .product(name: "LatchkeyAPI", package: "Latchkey"),
            ]
        ),
    ],
    swiftLanguageModes: [.v6]
)
