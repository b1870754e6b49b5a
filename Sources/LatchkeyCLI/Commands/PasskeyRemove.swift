import ArgumentParser
import LatchkeyClient
import VirtualAuthenticatorClient
import WebAuthn

/// `latchkey passkey remove ID`: deletes a passkey on the server first, then the local credential (the
/// "unbind" order: a local credential is never dropped while the server still accepts it). With the
/// conformance profile, which has no delete, only the local credential goes.
struct PasskeyRemove: LatchkeyCommand {
    static let configuration = CommandConfiguration(
        commandName: "remove", abstract: "Remove a passkey: on the server, then locally.")

    @OptionGroup var options: PasskeyOptions

    @Option(help: "The account to sign in to (native profile); without it any local passkey for the server answers.")
    var username: String?

    @Argument(help: "The passkey's credential ID (base64url), as `list` shows it.")
    var id: String

    func execute(_ io: CommandIO) async throws(CommandError) {
        guard let credentialID = Base64URL.decode(id), !credentialID.isEmpty else {
            throw .usage("badCredentialID", "\"\(id)\" is not a base64url credential ID")
        }
        let store = try options.credentialStore()
        var removedOnServer = false
        if options.profile == .native {
            let client = try await PasskeySession.signIn(options, store: store, username: username)
            do {
                try await client.deletePasskey(id: Base64URL.encode(credentialID))
            } catch {
                throw CommandError(error)
            }
            removedOnServer = true
        }
        let wasLocal: Bool
        do {
            wasLocal = try await store.credential(id: credentialID) != nil
            try await store.delete(id: credentialID)
        } catch {
            throw CommandError.store(error)
        }
        if !removedOnServer, !wasLocal {
            throw CommandError(code: "passkey.notFound", message: "no local passkey has the ID \(id)", exitStatus: 1)
        }
        io.emit(Report(id: Base64URL.encode(credentialID), removedOnServer: removedOnServer, removedLocally: wasLocal))
    }

    struct Report: Encodable {
        let id: String
        let removedOnServer: Bool
        let removedLocally: Bool
    }
}
