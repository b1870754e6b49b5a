import Foundation
import Testing

@testable import LatchkeyStore

/// ``StoredUser/nameKey(_:)`` skips Foundation's normalization for an ASCII name; the key must be the one the
/// Foundation path gives, or names stored before would no longer be found.
@Suite("Name keys: the ASCII path agrees with Foundation's")
struct NameKeyTests {
    private static func foundationKey(_ name: String) -> String {
        name.precomposedStringWithCanonicalMapping.lowercased()
    }

    @Test("every ASCII name of up to two characters, and random longer ones")
    func asciiNames() {
        let ascii = (0..<128).map { String(UnicodeScalar(UInt8($0))) }
        for first in ascii {
            #expect(StoredUser.nameKey(first) == Self.foundationKey(first))
            for second in ascii {
                let name = first + second
                #expect(StoredUser.nameKey(name) == Self.foundationKey(name), "\(Array(name.utf8))")
            }
        }
        var generator = SystemRandomNumberGenerator()
        for _ in 0..<2_000 {
            let name = String(
                decoding: (0..<Int.random(in: 3...40, using: &generator)).map { _ in
                    UInt8.random(in: 0..<128, using: &generator)
                }, as: UTF8.self)
            #expect(StoredUser.nameKey(name) == Self.foundationKey(name), "\(Array(name.utf8))")
        }
    }

    @Test("a name with non-ASCII characters is still composed before it is lower-cased")
    func nonASCIINames() {
        let decomposed = "A\u{30A}SA"  // A + combining ring above
        #expect(StoredUser.nameKey(decomposed) == "\u{E5}sa")
        #expect(StoredUser.nameKey("\u{C5}SA") == "\u{E5}sa")
        #expect(StoredUser.nameKey("É") == "é")
    }
}
