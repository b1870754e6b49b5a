/// The rule for the text people type in (display names, passkey labels): at most a given number of UTF-8 bytes
/// (not characters: a single grapheme cluster can hold thousands of code points), with no control characters and no
/// format characters other than the zero-width joiner and non-joiner that emoji sequences and some scripts need (so
/// no bidi overrides such as U+202E, no zero-width spaces).
enum PrintableText {
    static func isValid(_ text: String, maximumLength: Int) -> Bool {
        text.utf8.count <= maximumLength
            && !text.unicodeScalars.contains { scalar in
                switch scalar.properties.generalCategory {
                case .control: true
                case .format: scalar.value != 0x200C && scalar.value != 0x200D
                default: false
                }
            }
    }
}
