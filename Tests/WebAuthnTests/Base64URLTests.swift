import Foundation
import Testing
import WebAuthn

/// Base64url as WebAuthn's JSON writes it, checked against Foundation's base64 on every length up to 100.
@Suite("Base64URL")
struct Base64URLTests {
    /// Foundation's base64, made URL-safe and unpadded.
    private static func reference(_ bytes: [UInt8]) -> String {
        Data(bytes).base64EncodedString()
            .replacingOccurrences(of: "+", with: "-").replacingOccurrences(of: "/", with: "_").replacingOccurrences(
                of: "=", with: "")
    }

    @Test("arrays, slices, Data and non-contiguous collections encode alike, and decode back")
    func encodesEveryLengthAndShape() {
        var generator = SystemRandomNumberGenerator()
        for length in 0...100 {
            let bytes = (0..<length).map { _ in UInt8.random(in: .min ... .max, using: &generator) }
            let expected = Self.reference(bytes)
            #expect(Base64URL.encode(bytes) == expected, "\(length) bytes")
            #expect(Base64URL.encode(Data(bytes)) == expected)
            #expect(
                Base64URL.encode(([0] + bytes + [0]).dropFirst().dropLast()) == expected,
                "a slice that does not start at 0")
            #expect(Base64URL.encode(bytes.lazy.map { $0 }) == expected, "a collection without contiguous storage")
            #expect(Base64URL.decode(expected) == bytes)
        }
        #expect(Base64URL.encode([0xfb, 0xff, 0xbf]) == "-_-_", "the URL-safe alphabet")
    }
}
