import Foundation

/// Conversions of column values that both backends store the same way, with ``StoreError/Code/corruptRecord``
/// for a value no valid record could have written.
enum StoredValues {

    static func signCount(_ stored: Int64) throws(StoreError) -> UInt32 {
        guard let count = UInt32(exactly: stored) else {
            throw StoreError(.corruptRecord, "sign count \(stored) is out of range")
        }
        return count
    }

    static func algorithm(_ stored: Int64) throws(StoreError) -> Int {
        guard let algorithm = Int(exactly: stored) else {
            throw StoreError(.corruptRecord, "algorithm \(stored) is out of range")
        }
        return algorithm
    }
}
