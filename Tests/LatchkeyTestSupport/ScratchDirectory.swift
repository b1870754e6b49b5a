import Foundation

/// A fresh directory under the system's temporary directory, removed with everything in it when the value goes away.
///
/// Kept as a stored property of a test suite, it lives exactly as long as one test: Swift Testing makes a suite value
/// for each test and drops it afterwards, whatever the test did, so files the test writes there do not outlive it.
///
/// ```swift
/// struct SomeTests {
///     let scratch = ScratchDirectory(prefix: "latchkey-cli")
///     @Test func writesAFile() throws { let path = scratch.path("key.p8") … }
/// }
/// ```
public final class ScratchDirectory: Sendable {
    /// The directory.
    public let url: URL

    /// Makes `<temporary directory>/<prefix>-<UUID>`. A directory that cannot be made shows up as the test's own
    /// failure to write there.
    public init(prefix: String) {
        url = FileManager.default.temporaryDirectory.appendingPathComponent(
            "\(prefix)-\(UUID().uuidString)", isDirectory: true)
        try? FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
    }

    deinit {
        try? FileManager.default.removeItem(at: url)
    }

    /// The path of `name` inside the directory (not created).
    public func path(_ name: String) -> String {
        url.appendingPathComponent(name).path
    }

    /// Writes `bytes` to a new file named with `suffix` and returns its path.
    public func file(_ bytes: [UInt8], suffix: String = "") throws -> String {
        let path = path(UUID().uuidString + suffix)
        try Data(bytes).write(to: URL(fileURLWithPath: path))
        return path
    }
}
