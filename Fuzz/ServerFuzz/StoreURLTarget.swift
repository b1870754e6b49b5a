@testable import LatchkeyStore

/// The store URL (`--database`): a path, sqlite:// or postgres:// with its parameters. Parsing only; no store is opened.
enum StoreURLTarget {
    static func run(_ bytes: [UInt8]) {
        guard let url = try? StoreURL(String(decoding: bytes, as: UTF8.self)) else { return }
        _ = url.description
    }
}
