import Foundation

/// The text of every message the server sends, in plain text, with placeholders: `{rp}` (the relying party's name,
/// `--rp-name`), `{code}`, `{minutes}` (how long a code lasts) and `{detail}` (what changed, e.g. a passkey's name).
/// The English texts are built in; `--email-templates DIR` replaces any of them with `DIR/<name>.txt`, whose first line
/// is `Subject: …` and the rest the body — the way to translate them.
struct EmailTemplates: Sendable {
    /// A message the server sends, by its template's name.
    enum Name: String, CaseIterable, Sendable {
        case verificationCode = "verification-code"
        case recoveryCode = "recovery-code"
        case passkeyAdded = "passkey-added"
        case passkeyRemoved = "passkey-removed"
        case passwordChanged = "password-changed"
        case recoveryUsed = "recovery-used"
        case emailAdded = "email-added"
        case emailRemoved = "email-removed"
        case signedOutEverywhere = "signed-out-everywhere"
    }

    private let templates: [Name: (subject: String, body: String)]

    /// The built-in texts, with those in `directory` (if given) in their place.
    init(directory: String? = nil) throws(ConfigurationError) {
        var templates = Self.builtIn
        if let directory {
            for name in Name.allCases {
                let path = (directory as NSString).appendingPathComponent(name.rawValue + ".txt")
                guard FileManager.default.fileExists(atPath: path) else { continue }
                guard let data = FileManager.default.contents(atPath: path),
                    let text = String(data: data, encoding: .utf8)
                else { throw ConfigurationError("--email-templates", "cannot read \(path) as UTF-8") }
                let lines = text.split(separator: "\n", maxSplits: 1, omittingEmptySubsequences: false)
                guard let first = lines.first, first.hasPrefix("Subject: ") else {
                    throw ConfigurationError("--email-templates", "\(path) must begin with a 'Subject: …' line")
                }
                let body = lines.count > 1 ? String(lines[1]).trimmingCharacters(in: .newlines) : ""
                templates[name] = (String(first.dropFirst("Subject: ".count)), body + "\n")
            }
        }
        self.templates = templates
    }

    /// The subject and body of `name` with its placeholders filled.
    func render(_ name: Name, rpName: String, code: String = "", minutes: Int = 0, detail: String = "")
        -> (subject: String, text: String)
    {
        let template = templates[name] ?? Self.builtIn[name] ?? ("", "")
        func fill(_ text: String) -> String {
            text.replacingOccurrences(of: "{rp}", with: rpName).replacingOccurrences(of: "{code}", with: code)
                .replacingOccurrences(of: "{minutes}", with: String(minutes))
                .replacingOccurrences(of: "{detail}", with: detail)
        }
        return (fill(template.subject), fill(template.body))
    }

    private static let notYou = """
        If this was not you, sign in and remove what you do not recognise, or use a recovery code to get back in.
        """

    private static let builtIn: [Name: (subject: String, body: String)] = [
        .verificationCode: (
            "{code} is your {rp} verification code",
            """
            Enter this code to add this address to your {rp} account:

                {code}

            It works once, for {minutes} minutes. If you did not ask for it, ignore this message.

            """
        ),
        .recoveryCode: (
            "{code} is your {rp} recovery code",
            """
            Someone asked to recover the {rp} account that uses this address. Enter this code to add a new passkey:

                {code}

            It works once, for {minutes} minutes. If this was not you, ignore this message: nothing changes without it.

            """
        ),
        .passkeyAdded: ("A passkey was added to your {rp} account", "A passkey ({detail}) was added.\n\n\(notYou)\n"),
        .passkeyRemoved: (
            "A passkey was removed from your {rp} account", "A passkey ({detail}) was removed.\n\n\(notYou)\n"
        ),
        .passwordChanged: ("Your {rp} password changed", "Your password was {detail}.\n\n\(notYou)\n"),
        .recoveryUsed: (
            "Your {rp} account was recovered",
            "Your account was recovered and a new passkey was added.\n\n\(notYou)\n"
        ),
        .emailAdded: (
            "An email address was added to your {rp} account",
            "The address {detail} was added to your account and verified.\n\n\(notYou)\n"
        ),
        .emailRemoved: (
            "An email address was removed from your {rp} account",
            "The address {detail} was removed from your account.\n\n\(notYou)\n"
        ),
        .signedOutEverywhere: (
            "Your {rp} account was signed out everywhere",
            "Every session of your account was ended.\n\n\(notYou)\n"
        ),
    ]
}
