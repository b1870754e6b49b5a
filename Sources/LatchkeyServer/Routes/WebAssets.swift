import Crypto
import Foundation
import NIOCore
import WebAuthn

/// The web page's static files (`Resources/Web` in the package), read once and kept in memory with their
/// content type and a strong `ETag` (a hash of the bytes).
struct WebAssets: Sendable {
    /// One file as it is served.
    struct File: Sendable {
        let body: ByteBuffer
        let contentType: String
        /// A strong entity tag, quoted: `"<first 16 bytes of SHA-256, hex>"`.
        let etag: String
    }

    /// The files by name (`index.html`, `app.js`, …); subdirectories are not served.
    let files: [String: File]

    /// Reads every regular file directly inside `directory`. Hidden files are skipped.
    init(directory: URL) throws {
        let names = try FileManager.default.contentsOfDirectory(atPath: directory.path)
        var files: [String: File] = [:]
        for name in names where !name.hasPrefix(".") {
            let url = directory.appendingPathComponent(name)
            var isDirectory: ObjCBool = false
            guard FileManager.default.fileExists(atPath: url.path, isDirectory: &isDirectory), !isDirectory.boolValue
            else { continue }
            let data = try Data(contentsOf: url)
            let digest = Array(SHA256.hash(data: data).prefix(16))
            files[name] = File(
                body: ByteBuffer(bytes: data), contentType: Self.contentType(of: name),
                etag: "\"\(Hex.encode(digest))\"")
        }
        self.files = files
    }

    /// The files shipped in the package's resources, or none (only the API is served) when they cannot be found.
    ///
    /// SwiftPM places the resources beside the binary (`Latchkey_LatchkeyServer.resources/Web`, or
    /// `Latchkey_LatchkeyServer.bundle` on Apple platforms). They are looked up there and, for a binary run from a
    /// checkout, in the package's source tree — never through `Bundle.module`, whose accessor stops the process
    /// when the bundle is missing (a binary copied elsewhere without its resources must still serve the API).
    static let bundled: WebAssets = {
        // A directory that is missing (or a file) cannot be listed, so it makes no assets.
        for directory in candidateDirectories() {
            if let assets = try? WebAssets(directory: directory) { return assets }
        }
        return WebAssets(files: [:])
    }()

    /// Where the `Web` directory may be, most specific first.
    static func candidateDirectories(sourceFile: String = #filePath) -> [URL] {
        var roots = [Bundle.main.bundleURL]
        if let executable = Bundle.main.executableURL?.resolvingSymlinksInPath() {
            roots.append(executable.deletingLastPathComponent())
        }
        let bundles = roots.flatMap { root in
            [
                root.appendingPathComponent("Latchkey_LatchkeyServer.resources/Web"),
                root.appendingPathComponent("Latchkey_LatchkeyServer.bundle/Contents/Resources/Web"),
                root.appendingPathComponent("Latchkey_LatchkeyServer.bundle/Web"),
            ]
        }
        // Sources/LatchkeyServer/Routes/WebAssets.swift → Sources/LatchkeyServer/Resources/Web
        let sources = URL(fileURLWithPath: sourceFile).deletingLastPathComponent().deletingLastPathComponent()
            .appendingPathComponent("Resources/Web")
        return bundles + [sources]
    }

    private init(files: [String: File]) {
        self.files = files
    }

    /// The `Content-Type` for a file name, by its extension.
    static func contentType(of name: String) -> String {
        switch (name as NSString).pathExtension.lowercased() {
        case "html": "text/html; charset=utf-8"
        case "css": "text/css; charset=utf-8"
        case "js", "mjs": "text/javascript; charset=utf-8"
        case "json": "application/json; charset=utf-8"
        case "svg": "image/svg+xml"
        case "png": "image/png"
        case "ico": "image/x-icon"
        case "txt": "text/plain; charset=utf-8"
        default: "application/octet-stream"
        }
    }
}
