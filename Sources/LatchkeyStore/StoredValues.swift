import Foundation

/// Values that both backends store the same way: conversions of column values, with
/// ``StoreError/Code/corruptRecord`` for a value no valid record could have written, and checks of what a caller
/// passes, with ``StoreError/Code/invalidRecord``.
enum StoredValues {
    /// Throws ``StoreError/Code/invalidRecord`` unless each of `hashes` is a SHA-256 digest; `what` names one.
    static func requireSHA256(_ hashes: [Data], _ what: String) throws(StoreError) {
        guard hashes.allSatisfy({ $0.count == StoredSession.tokenHashLength }) else {
            throw StoreError(.invalidRecord, "\(what) must be \(StoredSession.tokenHashLength) bytes (SHA-256)")
        }
    }

    /// A stored integer as the record's type (a sign count, an algorithm); `name` names it in the error.
    static func integer<T: BinaryInteger>(_ stored: Int64, _ name: String) throws(StoreError) -> T {
        guard let value = T(exactly: stored) else {
            throw StoreError(.corruptRecord, "\(name) \(stored) is out of range")
        }
        return value
    }
}
