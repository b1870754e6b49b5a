import Foundation
import LatchkeyTestSupport
import Testing

@testable import LatchkeyServer

/// The messages' texts: built in, and replaced from `--email-templates` (how an operator translates them).
@Suite("Email templates")
struct EmailTemplatesTests {
    let scratch = ScratchDirectory(prefix: "latchkey-templates")

    @Test("built-in texts fill the relying party's name, the code and its lifetime")
    func builtIn() throws {
        let (subject, text) = try EmailTemplates().render(
            .verificationCode, rpName: "Example", code: "123456", minutes: 10)
        #expect(subject == "123456 is your Example verification code")
        #expect(text.contains("    123456\n") && text.contains("for 10 minutes"))
        for name in EmailTemplates.Name.allCases {
            let (subject, text) = try EmailTemplates().render(name, rpName: "Example", detail: "Laptop")
            #expect(subject.contains("Example") && !text.isEmpty && !text.contains("{"), "\(name)")
        }
    }

    @Test("a file in the directory replaces its message; the others stay built in")
    func replaced() throws {
        try "Subject: Neuer Passkey für {rp}\nEin Passkey ({detail}) wurde hinzugefügt.\n".write(
            toFile: scratch.path("passkey-added.txt"), atomically: true, encoding: .utf8)
        let templates = try EmailTemplates(directory: scratch.url.path)
        let (subject, text) = templates.render(.passkeyAdded, rpName: "Beispiel", detail: "Laptop")
        #expect(subject == "Neuer Passkey für Beispiel")
        #expect(text == "Ein Passkey (Laptop) wurde hinzugefügt.\n")
        #expect(templates.render(.passkeyRemoved, rpName: "Beispiel").subject.hasPrefix("A passkey was removed"))
    }

    @Test("a file without its Subject line, or not UTF-8, stops the start")
    func refused() throws {
        try "Neuer Passkey\n".write(toFile: scratch.path("passkey-added.txt"), atomically: true, encoding: .utf8)
        #expect(throws: ConfigurationError.self) { try EmailTemplates(directory: scratch.url.path) }
        try Data([0x53, 0xFF, 0xFE]).write(to: URL(fileURLWithPath: scratch.path("passkey-added.txt")))
        #expect(throws: ConfigurationError.self) { try EmailTemplates(directory: scratch.url.path) }
    }
}
