import ArgumentParser
import LatchkeyClient
import WebAuthn

/// `latchkey passkey register`: creates a passkey on the local virtual authenticator and registers it.
struct PasskeyRegister: LatchkeyCommand {
    static let configuration = CommandConfiguration(commandName: "register", abstract: "Register a new passkey for a username.")

    @OptionGroup var options: PasskeyOptions

    @Option(help: "The account's username.")
    var username: String

    @Option(help: "The name people see (default: the username).")
    var displayName: String?

    func execute(_ io: CommandIO) async throws(CommandError) {
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
                let signedUp = try await NativeClient(server: server).signUp(username: username, displayName: displayName, with: authenticator)
                let user = signedUp.session.user
                io.emit(Report(status: "registered", credentialID: signedUp.credential.id, username: user.name, userID: user.id))
            }
        } catch {
            throw CommandError(error)
        }
    }

    struct Report: Encodable {
        let status: String
        let credentialID: String
        let username: String
        let userID: String?
    }
}
