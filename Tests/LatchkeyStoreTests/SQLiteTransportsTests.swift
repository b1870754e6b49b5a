import Testing

@testable import LatchkeyStore

/// Transports are stored in SQLite as a JSON array of strings; the common arrays are read without a JSON decoder, and
/// whatever that fast path declines goes to the decoder, with the same result or a `store.corruptRecord`.
@Suite("SQLite transports column")
struct SQLiteTransportsTests {
    @Test(
        "plain arrays are read directly",
        arguments: [
            ("[]", [String]()), (#"["usb"]"#, ["usb"]), (#"["hybrid","internal"]"#, ["hybrid", "internal"]),
            (#"["smart-card","nfc","ble"]"#, ["smart-card", "nfc", "ble"]),
        ])
    func simpleArrays(_ json: String, expected: [String]) throws {
        #expect(SQLiteTransports.simpleArray(json) == expected)
        #expect(try SQLiteTransports.decode(json) == expected)
        #expect(try SQLiteTransports.decode(try SQLiteTransports.encode(expected)) == expected)
    }

    @Test(
        "anything unusual goes to the JSON decoder",
        arguments: [
            (#"[ "usb" ]"#, ["usb"]), (#"["u\u0073b"]"#, ["usb"]), (#"["a\"b"]"#, [#"a"b"#]), (#"["é"]"#, ["é"]),
        ])
    func decoderFallback(_ json: String, expected: [String]) throws {
        #expect(SQLiteTransports.simpleArray(json) == nil)
        #expect(try SQLiteTransports.decode(json) == expected)
    }

    @Test("what is not an array of strings is a corrupt record", arguments: ["", "[", "[1]", #"{"a":1}"#, #"["usb""#])
    func corrupt(_ json: String) {
        #expect(SQLiteTransports.simpleArray(json) == nil)
        #expect(throws: StoreError.self) { try SQLiteTransports.decode(json) }
    }
}
