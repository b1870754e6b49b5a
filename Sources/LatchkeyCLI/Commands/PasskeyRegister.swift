import ArgumentParser
import LatchkeyAPI
import LatchkeyClient
import WebAuthn

/// `latchkey passkey register`: creates a passkey on the local virtual authenticator and registers it.
struct PasskeyRegister: LatchkeyCommand {
    static let configuration = CommandConfiguration(
        commandName: "register",
        abstract: "Register a new passkey for a username (or, with --password, a password account)."
    )

    @OptionGroup var options: PasskeyOptions

    @Option(help: "The account's username.")
    var username: String

    @Option(help: "The name people see (default: the username).")
    var displayName: String?

    @OptionGroup var passwordOptions: PasswordOptions

    func execute(_ io: CommandIO) async throws(CommandError) {
        try passwordOptions.validate(profile: options.profile)
        if passwordOptions.password { return try await registerWithPassword(io) }
        let authenticator = try options.authenticator(store: try options.credentialStore())
        let server = try options.serverURL()
        let origin = try options.resolvedOrigin()
        do throws(LatchkeyClientError) {
            switch options.profile {
            case .conformance:
                let credential = try await ConformanceClient(server: server, origin: origin).register(
                    username: username, displayName: displayName ?? username, with: authenticator,
                    authenticatorSelection: .init(residentKey: .required, userVerification: .preferred)
                )
                io.emit(Report(status: "registered", credentialID: credential.id, username: username, userID: nil))
            case .native:
                let signedUp = try await NativeClient(server: server).signUp(
                    username: username, displayName: displayName, with: authenticator)
                let user = signedUp.session.user
                io.emit(
                    Report(
                        status: "registered", credentialID: signedUp.credential.id, username: user.name, userID: user.id
                    ))
            }
        } catch {
            throw CommandError(error)
        }
    }

    /// `POST /v1/password/register`, then the passkey upgrade with `--upgrade`.
    private func registerWithPassword(_ io: CommandIO) async throws(CommandError) {
        let password = try passwordOptions.read()
        let client = NativeClient(server: try options.serverURL())
        let session: SessionResponse
        do {
            session = try await client.passwordRegister(
                PasswordRegisterRequest(username: username, displayName: displayName, password: password))
        } catch {
            throw CommandError(error)
        }
        let upgrade = try await passwordOptions.finish(
            session, client: client, authenticator: try options.authenticator(store: try options.credentialStore()))
        io.emit(
            PasswordReport(
                status: "registered", username: session.user.name, userID: session.user.id,
                sessionExpiresAt: session.session.expiresAt,
                passkeyUpgrade: upgrade
            ))
    }

    struct Report: Encodable {
        let status: String
        let credentialID: String
        let username: String
        let userID: String?
    }
}
