import ArgumentParser
import LatchkeyAPI
import LatchkeyClient
import VirtualAuthenticatorClient

/// `latchkey passkey add`: puts another passkey on a signed-in account (native profile) — signs in with a
/// passkey from `--sign-in-store`, then creates the new one in `--store`, as a second device would. One
/// authenticator holds one passkey per account (the server's `excludeCredentials` lists the account's
/// passkeys), so the two stores are normally different files.
struct PasskeyAdd: LatchkeyCommand {
    static let configuration = CommandConfiguration(
        commandName: "add",
        abstract: "Add a passkey in --store to the account a passkey in --sign-in-store signs in to."
    )

    @OptionGroup var options: PasskeyOptions

    @Option(help: "The account to sign in to; without it any local passkey in --sign-in-store answers.")
    var username: String?

    @Option(help: "The credential file holding a passkey that signs in to the account (default: --store).")
    var signInStore: String?

    @Option(help: "A label for the new passkey, as `list` shows it.")
    var name: String?

    func execute(_ io: CommandIO) async throws(CommandError) {
        guard options.profile == .native else {
            throw .usage(
                "unsupportedProfile", "the conformance profile cannot add a passkey to an account; use --profile native"
            )
        }
        let client = try await PasskeySession.signIn(
            options, store: try options.credentialStore(signInStore), username: username)
        let authenticator = try options.authenticator(store: try options.credentialStore())
        do {
            io.emit(try await client.addPasskey(name: name, with: authenticator))
        } catch {
            throw CommandError(error)
        }
    }
}
