/// Character classes for the ASCII identifiers the configuration and the API accept (host labels, team ids,
/// package names, tickets).
enum ASCIIText {
    static func isLetter(_ byte: UInt8) -> Bool {
        (0x41...0x5a).contains(byte) || (0x61...0x7a).contains(byte)
    }

    /// Whether every byte of `text` is a letter, a digit, or one of `extra`.
    static func consists(of text: some StringProtocol, orAnyOf extra: String = "") -> Bool {
        text.utf8.allSatisfy { isLetter($0) || (0x30...0x39).contains($0) || extra.utf8.contains($0) }
    }
}
