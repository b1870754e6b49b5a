/// The rule for the text people type in (display names, passkey labels): no control characters and no format
/// characters other than the zero-width joiner and non-joiner that emoji sequences and some scripts need (so no bidi
/// overrides such as U+202E, no zero-width spaces). Each caller bounds the length in its own unit.
///
/// The OpenAPI document states the same rule as a pattern; `OpenAPIDocumentTests.printablePattern` holds the two equal.
enum PrintableText {
    static func isPrintable(_ text: String) -> Bool {
        !text.unicodeScalars.contains(where: isRefused)
    }

    /// Whether `scalar` is a control character or a format character other than ZWNJ (U+200C) and ZWJ (U+200D).
    static func isRefused(_ scalar: Unicode.Scalar) -> Bool {
        switch scalar.properties.generalCategory {
        case .control: true
        case .format: scalar.value != 0x200C && scalar.value != 0x200D
        default: false
        }
    }
}
