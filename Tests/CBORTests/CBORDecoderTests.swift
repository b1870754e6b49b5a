import CBOR
import Testing

@Suite("CBOR decoder")
struct CBORDecoderTests {
    func hex(_ string: String) -> [UInt8] {
        var bytes: [UInt8] = []
        var index = string.startIndex
        while index < string.endIndex {
            let next = string.index(index, offsetBy: 2)
            bytes.append(UInt8(string[index..<next], radix: 16) ?? 0)
            index = next
        }
        return bytes
    }

    /// RFC 8949 Appendix A examples within the supported subset.
    @Test(
        "RFC 8949 examples",
        arguments: [
            ("00", CBORValue.unsignedInt(0)),
            ("17", .unsignedInt(23)),
            ("1818", .unsignedInt(24)),
            ("1903e8", .unsignedInt(1000)),
            ("1bffffffffffffffff", .unsignedInt(UInt64.max)),
            ("20", .int(-1)),
            ("3863", .int(-100)),
            ("3bffffffffffffffff", .negativeInt(UInt64.max)),
            ("f4", .bool(false)),
            ("f5", .bool(true)),
            ("f6", .null),
            ("40", .byteString([])),
            ("4401020304", .byteString([1, 2, 3, 4])),
            ("6449455446", .textString("IETF")),
            ("62c3bc", .textString("ü")),
            ("83010203", .array([1, 2, 3])),
            ("a201020304", .map(CBORMap([(1, 2), (3, 4)]))),
            ("f93c00", .float(1.0)),
            ("fa47c35000", .float(100000.0)),
            ("fb3ff199999999999a", .float(1.1)),
        ])
    func examples(_ input: String, _ expected: CBORValue) throws {
        #expect(try CBORDecoder.decode(hex(input)) == expected)
    }

    @Test(
        "rejects malformed input with a specific error",
        arguments: [
            ("", CBORError.empty),
            ("19", .truncated(offset: 1)),
            ("1903", .truncated(offset: 1)),
            ("44010203", .lengthExceedsInput(offset: 0, claimed: 4)),
            ("5bffffffffffffffff00", .lengthExceedsInput(offset: 0, claimed: UInt64.max)),
            ("9bffffffffffffffff", .lengthExceedsInput(offset: 0, claimed: UInt64.max)),
            ("bbffffffffffffffff", .lengthExceedsInput(offset: 0, claimed: UInt64.max)),
            ("83010219", .truncated(offset: 4)),
            ("a201020103", .duplicateMapKey(offset: 3)),
            ("f7", .unsupportedSimpleValue(offset: 0, value: 23)),
            ("f0", .unsupportedSimpleValue(offset: 0, value: 16)),
            ("f820", .unsupportedSimpleValue(offset: 0, value: 32)),
            ("c074", .unsupportedTag(offset: 0, tag: 0)),
            ("5f4101ff", .indefiniteLength(offset: 0)),
            ("9f01ff", .indefiniteLength(offset: 0)),
            ("1c", .reservedAdditionalInfo(offset: 0)),
            ("62c328", .invalidUTF8(offset: 0)),
            ("0000", .trailingBytes(offset: 1, count: 1)),
        ])
    func rejects(_ input: String, _ expected: CBORError) {
        #expect(throws: expected) { try CBORDecoder.decode(hex(input)) }
    }

    @Test("nesting deeper than the limit is rejected, not recursed into")
    func nesting() {
        let deep = [UInt8](repeating: 0x81, count: 10_000) + [0x00]
        #expect(throws: CBORError.nestingTooDeep(limit: 16)) { try CBORDecoder.decode(deep) }
        let fine = [UInt8](repeating: 0x81, count: 16) + [0x00]
        #expect((try? CBORDecoder.decode(fine)) != nil)
    }

    @Test("tags are accepted only when allowed")
    func tags() throws {
        let value = try CBORDecoder(allowTags: true).decode(hex("c11a514b67b0"))
        #expect(value == .tagged(tag: 1, value: .unsignedInt(1_363_896_240)))
    }

    @Test("decodePrefix reports how much it consumed")
    func prefix() throws {
        let (value, consumed) = try CBORDecoder().decodePrefix(hex("a1616101ff00"))
        #expect(value == .map(CBORMap([("a", 1)])))
        #expect(consumed == 4)
    }

    @Test("maps of more than 16 entries (checked by hashing) reject a duplicate key and accept distinct keys")
    func largeMapDuplicates() throws {
        // 17 pairs {0: 0, 1: 0, …, 15: 0, k: 0}: header 0xb1, then two bytes a pair.
        func map(lastKey: UInt8) -> [UInt8] { [0xb1] + (0..<16).flatMap { [UInt8($0), 0x00] } + [lastKey, 0x00] }
        #expect(throws: CBORError.duplicateMapKey(offset: 33)) { try CBORDecoder.decode(map(lastKey: 0x03)) }
        let distinct = try CBORDecoder.decode(map(lastKey: 0x10))
        #expect(distinct.mapValue?.count == 17)
        // A duplicate text key among 18 entries is found too.
        let text: [UInt8] = [0xb2] + (0..<16).flatMap { [UInt8($0), 0x00] } + [0x61, 0x61, 0x00, 0x61, 0x61, 0x00]
        #expect(throws: CBORError.duplicateMapKey(offset: 36)) { try CBORDecoder.decode(text) }
    }

    @Test("every error has a stable code and message")
    func errorCodes() {
        let errors: [CBORError] = [
            .empty, .truncated(offset: 1), .duplicateMapKey(offset: 2), .nestingTooDeep(limit: 3),
        ]
        for error in errors {
            #expect(error.code.hasPrefix("cbor."))
            #expect(!error.description.isEmpty)
        }
    }
}
