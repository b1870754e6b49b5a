import ByteEncoding
import Testing

@Suite("Strict UTF-8")
struct StrictUTF8Tests {
    @Test(
        "well-formed text is decoded",
        arguments: [
            [UInt8](), Array("plain".utf8), Array("Grüße, 世界 🔑".utf8), [0xF4, 0x8F, 0xBF, 0xBF], [0xEF, 0xBF, 0xBD],
        ])
    func wellFormed(_ bytes: [UInt8]) {
        #expect(StrictUTF8.decode(bytes).map { Array($0.utf8) } == bytes)
    }

    @Test(
        "ill-formed bytes are refused",
        arguments: [
            [0xC0, 0x80],  // overlong NUL
            [0xE0, 0x80, 0xAF],  // overlong slash
            [0xED, 0xA0, 0x80],  // a surrogate
            [0xF4, 0x90, 0x80, 0x80],  // past U+10FFFF
            [0xF0, 0x9F, 0x98],  // truncated
            [0x61, 0x80],  // a lone continuation byte
            [0xFF],
        ] as [[UInt8]])
    func illFormed(_ bytes: [UInt8]) {
        #expect(StrictUTF8.decode(bytes) == nil)
    }

    /// Where the standard library's own validating initializer exists (Linux, iOS 18, macOS 15), the two agree on
    /// random bytes, biased towards the lead and continuation bytes where the edge cases are.
    @Test("agrees with String(validating:as:) on random bytes")
    func agreesWithStandardLibrary() {
        var generator = SystemRandomNumberGenerator()
        let alphabet: [UInt8] = [
            0x00, 0x41, 0x7F, 0x80, 0x8F, 0x9F, 0xA0, 0xBF, 0xC0, 0xC2, 0xDF, 0xE0, 0xED, 0xEF, 0xF0, 0xF4, 0xF5, 0xFF,
        ]
        for _ in 0..<20_000 {
            let bytes = (0..<Int.random(in: 1...6, using: &generator)).map { _ in
                alphabet.randomElement(using: &generator)!
            }
            #expect(StrictUTF8.decode(bytes) == String(validating: bytes, as: UTF8.self), "\(bytes)")
        }
    }
}
