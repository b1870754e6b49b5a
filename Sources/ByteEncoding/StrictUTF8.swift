/// Text from bytes that must be well-formed UTF-8 (no overlong forms, surrogates or code points past U+10FFFF).
///
/// The standard library's `String(validating:as:)` does this only from iOS 18 and macOS 15, later than this package's
/// deployment targets, so the check is Unicode's own decoder, which every system has.
public enum StrictUTF8 {
    /// The text of `bytes`, or nil if they are not well-formed UTF-8.
    @inlinable
    public static func decode<Bytes: Collection<UInt8>>(_ bytes: Bytes) -> String? {
        if !bytes.contains(where: { $0 >= 0x80 }) {
            return String(decoding: bytes, as: UTF8.self)
        }
        var iterator = bytes.makeIterator()
        var parser = UTF8()
        while true {
            switch parser.decode(&iterator) {
            case .scalarValue: continue
            case .emptyInput: return String(decoding: bytes, as: UTF8.self)
            case .error: return nil
            }
        }
    }
}
