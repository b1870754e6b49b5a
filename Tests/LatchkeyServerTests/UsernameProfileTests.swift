import Foundation
import Testing

@testable import LatchkeyServer

@Suite("Username preparation")
struct UsernameProfileTests {
    /// ASCII white space and its neighbours (the information separators U+001C–U+001F are not white space), NUL, DEL
    /// and a few name characters.
    static let alphabet: [Character] = [
        " ", "\t", "\n", "\u{0B}", "\u{0C}", "\r", "\u{1C}", "\u{1F}", "\u{00}", "\u{7F}", "a", "Z", "0", "-", ".",
    ]

    @Test("the ASCII path prepares every short ASCII name as Foundation's trimming and NFKC do")
    func asciiPathMatchesFoundation() {
        var generator = SystemRandomNumberGenerator()
        var names = [""]
        for length in 1...3 {
            names += Self.allNames(length: length)
        }
        for _ in 0..<3_000 {
            let length = Int.random(in: 4...12, using: &generator)
            names.append(String((0..<length).map { _ in Self.alphabet.randomElement(using: &generator)! }))
        }
        for name in names {
            let foundation = name.trimmingCharacters(in: .whitespacesAndNewlines)
                .precomposedStringWithCompatibilityMapping
            #expect(UsernameProfile.preparedASCII(name) == foundation, "\(Array(name.utf8))")
            #expect(UsernameProfile.prepared(name) == foundation)
        }
    }

    @Test(
        "a name with any non-ASCII character takes Foundation's path",
        arguments: ["ａｌｉｃｅ", " alice\u{3000}", "é", "alice\u{0085}", "\u{2028}bob"])
    func nonASCIIGoesToFoundation(_ name: String) {
        #expect(UsernameProfile.preparedASCII(name) == nil)
        #expect(
            UsernameProfile.prepared(name)
                == name.trimmingCharacters(in: .whitespacesAndNewlines).precomposedStringWithCompatibilityMapping)
    }

    private static func allNames(length: Int) -> [String] {
        guard length > 0 else { return [""] }
        return allNames(length: length - 1).flatMap { prefix in alphabet.map { prefix + String($0) } }
    }
}
