/// The rule for the text people type in (user names, display names, passkey labels): at most a given number of
/// characters, none of them control characters.
enum PrintableText {
    static func isValid(_ text: String, maximumLength: Int) -> Bool {
        text.count <= maximumLength && !text.unicodeScalars.contains { $0.properties.generalCategory == .control }
    }
}
