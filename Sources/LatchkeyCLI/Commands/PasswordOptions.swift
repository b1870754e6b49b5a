import ArgumentParser
import Foundation
import LatchkeyAPI
import LatchkeyClient

/// The password flags of `latchkey passkey register` and `login`. The password itself is never a flag value (it
/// would show in `ps` and shell history): it comes from `$LATCHKEY_PASSWORD` or the first line of `--password-file`.
struct PasswordOptions: ParsableArguments {
    @Flag(
        help:
            "Use a password (native profile): sign up or sign in with the password from $LATCHKEY_PASSWORD or --password-file."
    )
    var password = false

    @Option(
        help: ArgumentHelp(
            "With --password: a file whose first line is the password (else $LATCHKEY_PASSWORD).", valueName: "file"))
    var passwordFile: String?

    @Flag(help: "With --password: finish the server's passkey upgrade with a new passkey on the local authenticator.")
    var upgrade = false

    /// Refuses flags that need `--password` without it, and the conformance profile with it.
    func validate(profile: PasskeyProfile) throws(CommandError) {
        if !password, passwordFile != nil || upgrade {
            throw .usage("passwordFlags", "--password-file and --upgrade need --password")
        }
        if password, profile != .native {
            throw .usage("passwordProfile", "--password needs the native profile (--profile native)")
        }
    }

    /// The password: the first line of `--password-file`, else `$LATCHKEY_PASSWORD`.
    func read(environment: [String: String] = ProcessInfo.processInfo.environment) throws(CommandError) -> String {
        var text: String
        if let passwordFile {
            guard let data = FileManager.default.contents(atPath: passwordFile) else {
                throw .io("passwordFile", "cannot read the password file \(passwordFile)")
            }
            text = String(decoding: data, as: UTF8.self)
            if let end = text.firstIndex(where: \.isNewline) { text = String(text[..<end]) }
        } else if let value = environment["LATCHKEY_PASSWORD"] {
            text = value
        } else {
            throw .usage(
                "passwordMissing",
                "--password reads the password from $LATCHKEY_PASSWORD or --password-file FILE; neither is set")
        }
        guard !text.isEmpty else { throw .usage("passwordMissing", "the password is empty") }
        return text
    }

    /// After a password sign-up or sign-in: finishes the passkey upgrade with `authenticator` when asked to.
    func finish(
        _ session: SessionResponse, client: NativeClient,
        authenticator: @autoclosure () throws(CommandError) -> any Authenticator
    ) async throws(CommandError) -> PasswordReport.Upgrade {
        guard let offered = session.passkeyUpgrade else {
            return PasswordReport.Upgrade(state: "none", credentialID: nil)
        }
        guard upgrade else { return PasswordReport.Upgrade(state: "offered", credentialID: nil) }
        let authenticator = try authenticator()
        do {
            let passkey = try await client.completePasskeyUpgrade(offered, with: authenticator)
            return PasswordReport.Upgrade(state: "completed", credentialID: passkey.id)
        } catch {
            throw CommandError(error)
        }
    }
}

/// What a password sign-up or sign-in prints.
struct PasswordReport: Encodable {
    struct Upgrade: Encodable {
        /// `none` (the account has a passkey), `offered` (not taken: no `--upgrade`) or `completed`.
        let state: String
        let credentialID: String?
    }

    let status: String
    let method = "password"
    let username: String
    let userID: String
    let sessionExpiresAt: Date
    let passkeyUpgrade: Upgrade
}
