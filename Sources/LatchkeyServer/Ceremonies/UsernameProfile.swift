import Foundation

/// Account names under the PRECIS UsernameCaseMapped profile (RFC 8265 §3.3), as far as a name is checked here:
///
/// - **width mapping** and compatibility forms: NFKC, so fullwidth `ａｌｉｃｅ` is `alice`;
/// - **case mapping**: names are compared lower-cased (the store's name key), while the name is kept as typed for display;
/// - **allowed code points** (the IdentifierClass): printable ASCII, letters, combining marks and digits, and single
///   spaces between parts (RFC 8265 §3.5: space-separated usernames). Controls, format characters (zero-width
///   spaces and joiners, bidi controls such as U+202E), other spaces, non-ASCII symbols and punctuation, private-use
///   and unassigned code points are refused;
/// - **length** in UTF-8 bytes, not characters, so a few grapheme clusters cannot hide thousands of code points.
enum UsernameProfile {
    /// The longest name in UTF-8 bytes.
    static let maximumBytes = 256

    /// The name as stored: surrounding white space removed, width-mapped and normalized (NFKC).
    static func prepared(_ name: String) -> String {
        name.trimmingCharacters(in: .whitespacesAndNewlines).precomposedStringWithCompatibilityMapping
    }

    /// Whether a prepared name is allowed.
    static func isAllowed(_ name: String) -> Bool {
        guard !name.isEmpty, name.utf8.count <= maximumBytes, !name.contains("  ") else { return false }
        return name.unicodeScalars.allSatisfy(isAllowed(_:))
    }

    private static func isAllowed(_ scalar: Unicode.Scalar) -> Bool {
        if (0x20...0x7E).contains(scalar.value) { return true }
        switch scalar.properties.generalCategory {
        case .uppercaseLetter, .lowercaseLetter, .titlecaseLetter, .modifierLetter, .otherLetter,
             .nonspacingMark, .spacingMark, .enclosingMark, .decimalNumber:
            return true
        default:
            return false
        }
    }
}
