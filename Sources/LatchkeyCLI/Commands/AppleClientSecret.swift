import AppleSignIn
import ArgumentParser
import Foundation

/// `latchkey apple`: Sign in with Apple helpers.
struct Apple: ParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Sign in with Apple helpers.",
        subcommands: [AppleClientSecret.self]
    )
}

/// `latchkey apple client-secret`: signs a client secret (an ES256 JWT) with the team's `.p8` key, for tools that
/// call Apple's token or revoke endpoints themselves.
struct AppleClientSecret: LatchkeyCommand {
    static let configuration = CommandConfiguration(
        commandName: "client-secret",
        abstract: "Sign a Sign in with Apple client secret with the team's .p8 key.",
        discussion: """
            Prints {"clientSecret": JWT, "expiresAt": …}. The JWT is a credential: Apple accepts it as the client's \
            password until it expires (at most 180 days here; Apple's limit is six months).
            """
    )

    /// The longest lifetime offered: 180 days, inside Apple's 15 777 000-second limit.
    static let maximumDays = 180

    @Option(help: "The 10-character Team ID (the secret's iss).")
    var teamID: String

    @Option(help: "The ID of the Sign in with Apple key (the header's kid).")
    var keyID: String

    @Option(help: "The bundle ID or Services ID the secret is for (the secret's sub).")
    var clientID: String

    @Option(
        help: ArgumentHelp(
            "The .p8 private key file from Apple's developer portal; - reads standard input.", valueName: "file"))
    var key: String

    @Option(help: "Days until the secret expires (1–180).")
    var days: Int = 180

    func execute(_ io: CommandIO) async throws(CommandError) {
        guard (1...Self.maximumDays).contains(days) else {
            throw .usage("invalidDays", "--days must be between 1 and \(Self.maximumDays)")
        }
        let pem = String(decoding: try InputFile.read(key, io: io, what: ".p8 key"), as: UTF8.self)
        do {
            let signer = try AppleClientSecretSigner(teamID: teamID, keyID: keyID, p8: pem)
            let secret = try signer.makeSecret(clientID: clientID, lifetime: TimeInterval(days) * 86_400)
            io.emit(
                Output(
                    clientSecret: secret.value, clientID: clientID, teamID: teamID, keyID: keyID,
                    expiresAt: secret.expiresAt))
        } catch {
            throw CommandError(code: error.code.rawValue, message: error.message, exitStatus: 2)
        }
    }

    /// What the command prints.
    struct Output: Encodable {
        let clientSecret: String
        let clientID: String
        let teamID: String
        let keyID: String
        let expiresAt: Date
    }
}
