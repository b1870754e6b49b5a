import CBOR
import Testing

@Suite("CBOR encoder")
struct CBOREncoderTests {
    @Test("shortest integer and length forms")
    func integers() {
        #expect(CBOREncoder.encode(0) == [0x00])
        #expect(CBOREncoder.encode(23) == [0x17])
        #expect(CBOREncoder.encode(24) == [0x18, 0x18])
        #expect(CBOREncoder.encode(256) == [0x19, 0x01, 0x00])
        #expect(CBOREncoder.encode(65536) == [0x1a, 0x00, 0x01, 0x00, 0x00])
        #expect(CBOREncoder.encode(.unsignedInt(1 << 32)) == [0x1b, 0, 0, 0, 1, 0, 0, 0, 0])
        #expect(CBOREncoder.encode(-7) == [0x26])
        #expect(CBOREncoder.encode(-257) == [0x39, 0x01, 0x00])
        #expect(CBOREncoder.encode(.byteString([UInt8](repeating: 0, count: 24))).prefix(2) == [0x58, 0x18])
    }

    @Test("map keys sorted canonically (CTAP2): shorter encodings first, then bytewise")
    func canonicalMapOrder() {
        // A COSE EC2 key built in a scrambled order encodes as authenticators do: 1, 3, -1, -2, -3.
        let map = CBORMap([(-3, .byteString([3])), ("z", 0), (3, -7), (-1, 1), (1, 2), (-2, .byteString([2]))])
        let encoded = CBOREncoder.encode(.map(map))
        #expect(
            encoded == [0xa6, 0x01, 0x02, 0x03, 0x26, 0x20, 0x01, 0x21, 0x41, 0x02, 0x22, 0x41, 0x03, 0x61, 0x7a, 0x00])
    }

    @Test(
        "decode(encode(x)) == x",
        arguments: [
            CBORValue.map(
                CBORMap([("fmt", "none"), ("attStmt", .map(CBORMap())), ("authData", .byteString([1, 2, 3]))])),
            .array([.null, .bool(true), .bool(false), .float(1.5), .textString("ünïcødé"), .negativeInt(UInt64.max)]),
            .tagged(tag: 24, value: .byteString([0xa0])),
        ])
    func roundTrip(_ value: CBORValue) throws {
        let decoded = try CBORDecoder(allowTags: true).decode(CBOREncoder.encode(value))
        // Maps come back in canonical order; compare by re-encoding.
        #expect(CBOREncoder.encode(decoded) == CBOREncoder.encode(value))
    }

    @Test("CBORMap lookups and updates")
    func mapAccess() {
        var map = CBORMap([(1, 2), ("a", "b")])
        #expect(map[int: 1] == 2)
        #expect(map[text: "a"] == "b")
        map[.int(1)] = nil
        #expect(map.count == 1)
        map[.int(5)] = .null
        #expect(map.keys == ["a", 5])
    }
}
