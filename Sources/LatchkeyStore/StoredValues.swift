import Foundation

/// Conversions of column values that both backends store the same way, with ``StoreError/Code/corruptRecord``
/// for a value no valid record could have written.
enum StoredValues {
    /// A stored integer as the record's type (a sign count, an algorithm); `name` names it in the error.
    static func integer<T: BinaryInteger>(_ stored: Int64, _ name: String) throws(StoreError) -> T {
        guard let value = T(exactly: stored) else {
            throw StoreError(.corruptRecord, "\(name) \(stored) is out of range")
        }
        return value
    }
}
