import ArgumentParser
import Foundation
import LatchkeyAPI
import LatchkeyClient
import VirtualAuthenticator
import VirtualAuthenticatorClient
import WebAuthn

/// `latchkey passkey list`: the account's passkeys on the server (native profile, after signing in with a
/// local passkey), each marked when it is on this machine; with the conformance profile, the local passkeys
/// for the server.
struct PasskeyList: LatchkeyCommand {
    static let configuration = CommandConfiguration(commandName: "list", abstract: "List the account's passkeys.")

    @OptionGroup var options: PasskeyOptions

    @Option(help: "The account to sign in to (native profile); without it any local passkey for the server answers.")
    var username: String?

    func execute(_ io: CommandIO) async throws(CommandError) {
        let store = try options.credentialStore()
        let local = try await PasskeySession.localCredentials(store, for: ServerURL(options.server))
        switch options.profile {
        case .conformance:
            io.emit(Report(server: nil, local: local.map(LocalPasskeyReport.init)))
        case .native:
            let client = try await PasskeySession.signIn(options, store: store, username: username)
            let passkeys: [PasskeySummary]
            do {
                passkeys = try await client.passkeys()
            } catch {
                throw CommandError(error)
            }
            let localIDs = Set(local.map { Base64URL.encode($0.id) })
            io.emit(
                Report(
                    server: passkeys.map { ServerPasskey(passkey: $0, onThisDevice: localIDs.contains($0.id)) },
                    local: local.map(LocalPasskeyReport.init)
                ))
        }
    }

    struct ServerPasskey: Encodable {
        let passkey: PasskeySummary
        let onThisDevice: Bool

        enum CodingKeys: String, CodingKey { case onThisDevice }

        func encode(to encoder: any Encoder) throws {
            try passkey.encode(to: encoder)
            var container = encoder.container(keyedBy: CodingKeys.self)
            try container.encode(onThisDevice, forKey: .onThisDevice)
        }
    }

    struct Report: Encodable {
        let server: [ServerPasskey]?
        let local: [LocalPasskeyReport]
    }
}
