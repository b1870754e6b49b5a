import ArgumentParser
import LatchkeyAPI
import LatchkeyClient
import VirtualAuthenticatorClient

/// `latchkey passkey rename ID NAME`: renames one of the account's passkeys on the server (native profile).
struct PasskeyRename: LatchkeyCommand {
    static let configuration = CommandConfiguration(
        commandName: "rename", abstract: "Rename one of the account's passkeys on the server.")

    @OptionGroup var options: PasskeyOptions

    @Option(help: "The account to sign in to; without it any local passkey for the server answers.")
    var username: String?

    @Argument(help: "The passkey's credential ID (base64url), as `list` shows it.")
    var id: String

    @Argument(help: "The new name; an empty string clears it.")
    var name: String

    func execute(_ io: CommandIO) async throws(CommandError) {
        guard options.profile == .native else {
            throw .usage("unsupportedProfile", "the conformance profile has no passkey names; use --profile native")
        }
        let client = try await PasskeySession.signIn(options, store: try options.credentialStore(), username: username)
        do {
            io.emit(try await client.renamePasskey(id: id, to: name.isEmpty ? nil : name))
        } catch {
            throw CommandError(error)
        }
    }
}
