import ArgumentParser
import Foundation
import LatchkeyAPI
import LatchkeyClient
import VirtualAuthenticator
import WebAuthn

/// `latchkey passkey login`: signs in with a local passkey, username-less when no username is given.
struct PasskeyLogin: LatchkeyCommand {
    static let configuration = CommandConfiguration(
        commandName: "login",
        abstract: "Sign in with a local passkey (username-less without --username), or with --password."
    )

    @OptionGroup var options: PasskeyOptions

    @Option(help: "The account to sign in to; without it any discoverable passkey for the server answers.")
    var username: String?

    @OptionGroup var passwordOptions: PasswordOptions

    func execute(_ io: CommandIO) async throws(CommandError) {
        try passwordOptions.validate(profile: options.profile)
        if passwordOptions.password { return try await signInWithPassword(io) }
        let store = try options.credentialStore()
        let authenticator = try options.authenticator(
            store: store, choice: username.map(CredentialChoice.userName) ?? .mostRecent)
        let server = try options.serverURL()
        let origin = try options.resolvedOrigin()
        do throws(LatchkeyClientError) {
            switch options.profile {
            case .conformance:
                let credential = try await ConformanceClient(server: server, origin: origin).authenticate(
                    username: username, with: authenticator)
                io.emit(
                    Report(
                        status: "signedIn", credentialID: credential.id, username: username, userID: nil,
                        sessionExpiresAt: nil))
            case .native:
                let signedIn = try await NativeClient(server: server).signIn(username: username, with: authenticator)
                let session = signedIn.session
                io.emit(
                    Report(
                        status: "signedIn", credentialID: signedIn.credential.id, username: session.user.name,
                        userID: session.user.id,
                        sessionExpiresAt: session.session.expiresAt
                    ))
            }
        } catch {
            throw CommandError(error)
        }
    }

    /// `POST /v1/password/signin`, then the passkey upgrade with `--upgrade` when the account has no passkey.
    private func signInWithPassword(_ io: CommandIO) async throws(CommandError) {
        guard let username else { throw .usage("usernameMissing", "--password needs --username") }
        let password = try passwordOptions.read()
        let client = NativeClient(server: try options.serverURL())
        let session: SessionResponse
        do {
            session = try await client.passwordSignIn(PasswordSignInRequest(username: username, password: password))
        } catch {
            throw CommandError(error)
        }
        let upgrade = try await passwordOptions.finish(
            session, client: client, authenticator: try options.authenticator(store: try options.credentialStore()))
        io.emit(
            PasswordReport(
                status: "signedIn", username: session.user.name, userID: session.user.id,
                sessionExpiresAt: session.session.expiresAt,
                passkeyUpgrade: upgrade
            ))
    }

    struct Report: Encodable {
        let status: String
        let credentialID: String
        let username: String?
        let userID: String?
        let sessionExpiresAt: Date?
    }
}
