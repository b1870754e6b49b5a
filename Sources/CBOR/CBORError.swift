/// Why a byte string is not acceptable CBOR. Every case has a stable ``code``.
public enum CBORError: Error, Sendable, Equatable, CustomStringConvertible {
    /// The input ended inside an item.
    case truncated(offset: Int)
    /// A length or count claims more bytes or items than the input can hold.
    case lengthExceedsInput(offset: Int, claimed: UInt64)
    /// Arrays, maps and tags nest deeper than the decoder's limit.
    case nestingTooDeep(limit: Int)
    /// The same key appears twice in one map.
    case duplicateMapKey(offset: Int)
    /// A simple value other than false, true and null (including `undefined`).
    case unsupportedSimpleValue(offset: Int, value: UInt8)
    /// A tagged item; WebAuthn structures use none.
    case unsupportedTag(offset: Int, tag: UInt64)
    /// Indefinite-length items are not allowed in CTAP2 canonical CBOR.
    case indefiniteLength(offset: Int)
    /// Additional information 28–30, reserved by RFC 8949.
    case reservedAdditionalInfo(offset: Int)
    /// A text string that is not valid UTF-8.
    case invalidUTF8(offset: Int)
    /// Bytes follow the single item that was expected.
    case trailingBytes(offset: Int, count: Int)
    /// The input is empty.
    case empty

    /// A stable machine-readable code.
    public var code: String {
        switch self {
        case .truncated: "cbor.truncated"
        case .lengthExceedsInput: "cbor.lengthExceedsInput"
        case .nestingTooDeep: "cbor.nestingTooDeep"
        case .duplicateMapKey: "cbor.duplicateMapKey"
        case .unsupportedSimpleValue: "cbor.unsupportedSimpleValue"
        case .unsupportedTag: "cbor.unsupportedTag"
        case .indefiniteLength: "cbor.indefiniteLength"
        case .reservedAdditionalInfo: "cbor.reservedAdditionalInfo"
        case .invalidUTF8: "cbor.invalidUTF8"
        case .trailingBytes: "cbor.trailingBytes"
        case .empty: "cbor.empty"
        }
    }

    public var description: String {
        switch self {
        case .truncated(let o): "CBOR input ends inside an item (at byte \(o))"
        case .lengthExceedsInput(let o, let n): "CBOR length \(n) at byte \(o) runs past the end of the input"
        case .nestingTooDeep(let l): "CBOR nesting is deeper than \(l) levels"
        case .duplicateMapKey(let o): "CBOR map has a duplicate key (at byte \(o))"
        case .unsupportedSimpleValue(let o, let v): "CBOR simple value \(v) at byte \(o) is not supported"
        case .unsupportedTag(let o, let t): "CBOR tag \(t) at byte \(o) is not supported"
        case .indefiniteLength(let o): "CBOR indefinite-length item at byte \(o) is not allowed"
        case .reservedAdditionalInfo(let o): "CBOR reserved additional information at byte \(o)"
        case .invalidUTF8(let o): "CBOR text string at byte \(o) is not valid UTF-8"
        case .trailingBytes(let o, let n): "\(n) unexpected bytes after the CBOR item (from byte \(o))"
        case .empty: "CBOR input is empty"
        }
    }
}
