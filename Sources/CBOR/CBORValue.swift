/// A decoded CBOR data item (RFC 8949), restricted to what WebAuthn and CTAP2 use.
///
/// Integers keep their CBOR major type: ``unsignedInt(_:)`` holds `n`, ``negativeInt(_:)`` holds the
/// encoded argument `n` of the value `-1 - n`, so every CBOR integer (-2^64 ... 2^64-1) round-trips.
public indirect enum CBORValue: Sendable, Hashable {
    case unsignedInt(UInt64)
    /// The negative integer `-1 - n`.
    case negativeInt(UInt64)
    case byteString([UInt8])
    case textString(String)
    case array([CBORValue])
    case map(CBORMap)
    case tagged(tag: UInt64, value: CBORValue)
    case bool(Bool)
    case null
    case float(Double)

    /// Makes an integer value from a signed Swift integer.
    public static func int(_ value: Int) -> CBORValue {
        value >= 0 ? .unsignedInt(UInt64(value)) : .negativeInt(UInt64(-1 - value))
    }

    /// The value as a Swift `Int`, when it is a CBOR integer that fits.
    public var intValue: Int? {
        switch self {
        case .unsignedInt(let n): return n <= UInt64(Int.max) ? Int(n) : nil
        case .negativeInt(let n): return n <= UInt64(Int.max) ? -1 - Int(n) : nil
        default: return nil
        }
    }

    public var bytesValue: [UInt8]? {
        if case .byteString(let b) = self { return b }
        return nil
    }

    public var stringValue: String? {
        if case .textString(let s) = self { return s }
        return nil
    }

    public var arrayValue: [CBORValue]? {
        if case .array(let a) = self { return a }
        return nil
    }

    public var mapValue: CBORMap? {
        if case .map(let m) = self { return m }
        return nil
    }

    public var boolValue: Bool? {
        if case .bool(let b) = self { return b }
        return nil
    }
}

/// A CBOR map that keeps its entries in the order they were decoded (or built).
///
/// Keys are unique: the decoder rejects duplicates and the encoder sorts keys canonically.
public struct CBORMap: Sendable, Hashable {
    public private(set) var entries: [(key: CBORValue, value: CBORValue)]

    public init() { entries = [] }

    public init(_ entries: [(CBORValue, CBORValue)]) {
        self.entries = []
        for (key, value) in entries { self[key] = value }
    }

    public var count: Int { entries.count }
    public var keys: [CBORValue] { entries.map(\.key) }

    public subscript(key: CBORValue) -> CBORValue? {
        get { entries.first(where: { $0.key == key })?.value }
        set {
            if let index = entries.firstIndex(where: { $0.key == key }) {
                if let newValue { entries[index].value = newValue } else { entries.remove(at: index) }
            } else if let newValue {
                entries.append((key, newValue))
            }
        }
    }

    /// Looks up an integer key (COSE labels, CTAP2 parameters).
    public subscript(int key: Int) -> CBORValue? { self[.int(key)] }

    /// Looks up a text key (attestation object and statement fields).
    public subscript(text key: String) -> CBORValue? { self[.textString(key)] }

    func containsKey(_ key: CBORValue) -> Bool {
        entries.contains { $0.key == key }
    }

    mutating func appendDecoded(_ key: CBORValue, _ value: CBORValue) {
        entries.append((key, value))
    }

    public static func == (lhs: CBORMap, rhs: CBORMap) -> Bool {
        lhs.entries.count == rhs.entries.count
            && zip(lhs.entries, rhs.entries).allSatisfy { $0.key == $1.key && $0.value == $1.value }
    }

    public func hash(into hasher: inout Hasher) {
        hasher.combine(entries.count)
        for entry in entries {
            hasher.combine(entry.key)
            hasher.combine(entry.value)
        }
    }
}

extension CBORValue: ExpressibleByIntegerLiteral, ExpressibleByStringLiteral, ExpressibleByBooleanLiteral {
    public init(integerLiteral value: Int) { self = .int(value) }
    public init(stringLiteral value: String) { self = .textString(value) }
    public init(booleanLiteral value: Bool) { self = .bool(value) }
}
