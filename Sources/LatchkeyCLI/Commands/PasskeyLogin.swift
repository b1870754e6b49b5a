import ArgumentParser
import Foundation
import LatchkeyClient
import VirtualAuthenticator
import WebAuthn

/// `latchkey passkey login`: signs in with a local passkey, username-less when no username is given.
struct PasskeyLogin: LatchkeyCommand {
    static let configuration = CommandConfiguration(
        commandName: "login", abstract: "Sign in with a local passkey (username-less without --username)."
    )

    @OptionGroup var options: PasskeyOptions

    @Option(help: "The account to sign in to; without it any discoverable passkey for the server answers.")
    var username: String?

    func execute(_ io: CommandIO) async throws(CommandError) {
        let store = try options.credentialStore()
        let authenticator = try options.authenticator(store: store, choice: username.map(CredentialChoice.userName) ?? .mostRecent)
        let server = try options.serverURL()
        let origin = try options.resolvedOrigin()
        do throws(LatchkeyClientError) {
            switch options.profile {
            case .conformance:
                let credential = try await ConformanceClient(server: server, origin: origin).authenticate(username: username, with: authenticator)
                io.emit(Report(status: "signedIn", credentialID: credential.id, username: username, userID: nil, sessionExpiresAt: nil))
            case .native:
                let signedIn = try await NativeClient(server: server).signIn(username: username, with: authenticator)
                let session = signedIn.session
                io.emit(Report(
                    status: "signedIn", credentialID: signedIn.credential.id, username: session.user.name, userID: session.user.id,
                    sessionExpiresAt: session.session.expiresAt
                ))
            }
        } catch {
            throw CommandError(error)
        }
    }

    struct Report: Encodable {
        let status: String
        let credentialID: String
        let username: String?
        let userID: String?
        let sessionExpiresAt: Date?
    }
}
