import Foundation

/// Account names under the PRECIS UsernameCaseMapped profile (RFC 8265 §3.3), as far as a name is checked here:
///
/// - **width mapping** and compatibility forms: NFKC, so fullwidth `ａｌｉｃｅ` is `alice`;
/// - **case mapping**: names are compared lower-cased (the store's name key), while the name is kept as typed for display;
/// - **allowed code points** (the IdentifierClass): printable ASCII, letters, combining marks and digits, and single
///   spaces between parts (RFC 8265 §3.5: space-separated usernames). Controls, format characters (zero-width
///   spaces and joiners, bidi controls such as U+202E), default-ignorable code points (invisible marks and letters
///   such as U+034F, U+FE0F and the Hangul fillers), other spaces, non-ASCII symbols and punctuation, private-use
///   and unassigned code points are refused;
/// - **length** in UTF-8 bytes, not characters, so a few grapheme clusters cannot hide thousands of code points.
enum UsernameProfile {
    /// The longest name in UTF-8 bytes.
    static let maximumBytes = 256

    /// The name as stored: surrounding white space removed, width-mapped and normalized (NFKC).
    ///
    /// An ASCII name (most are, and a sign-in prepares one) is its own NFKC form and its only white space is ASCII, so
    /// it is trimmed here without Foundation's `NSString` round trip; any other name takes Foundation's path.
    static func prepared(_ name: String) -> String {
        if let ascii = preparedASCII(name) { return ascii }
        return name.trimmingCharacters(in: .whitespacesAndNewlines).precomposedStringWithCompatibilityMapping
    }

    /// ``prepared(_:)`` for an all-ASCII name; nil for any other. The white space `CharacterSet.whitespacesAndNewlines`
    /// holds in ASCII is tab, line feed, vertical tab, form feed, carriage return and space.
    static func preparedASCII(_ name: String) -> String? {
        var utf8 = name.utf8[...]
        guard utf8.allSatisfy({ $0 < 0x80 }) else { return nil }
        let isWhiteSpace: (UInt8) -> Bool = { $0 == 0x20 || (0x09...0x0D).contains($0) }
        while let first = utf8.first, isWhiteSpace(first) { utf8.removeFirst() }
        while let last = utf8.last, isWhiteSpace(last) { utf8.removeLast() }
        return utf8.count == name.utf8.count ? name : String(Substring(utf8))
    }

    /// Whether a prepared name is allowed.
    static func isAllowed(_ name: String) -> Bool {
        guard !name.isEmpty, name.utf8.count <= maximumBytes, !name.contains("  ") else { return false }
        return name.unicodeScalars.allSatisfy(isAllowed(_:))
    }

    private static func isAllowed(_ scalar: Unicode.Scalar) -> Bool {
        if (0x20...0x7E).contains(scalar.value) { return true }
        // Invisible: variation selectors, the combining grapheme joiner, Hangul fillers, Mongolian free variation
        // selectors, Khmer inherent vowels… (Unicode's Default_Ignorable_Code_Point; PRECIS disallows them).
        if scalar.properties.isDefaultIgnorableCodePoint { return false }
        switch scalar.properties.generalCategory {
        case .uppercaseLetter, .lowercaseLetter, .titlecaseLetter, .modifierLetter, .otherLetter,
            .nonspacingMark, .spacingMark, .enclosingMark, .decimalNumber:
            return true
        default:
            return false
        }
    }
}
