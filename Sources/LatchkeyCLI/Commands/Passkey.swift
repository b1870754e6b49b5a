import ArgumentParser

/// `latchkey passkey`: run passkey ceremonies against a relying party with a file-backed virtual
/// authenticator, and manage the account's passkeys.
struct Passkey: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "passkey",
        abstract: "Register and sign in with passkeys against a server, and manage them.",
        discussion: """
            Passkeys live in an encrypted file (--store). The native profile (/v1) signs in for list, rename \
            and remove (and `add` puts a second passkey on the account); the conformance profile has no passkey \
            management, so there list and remove act on the local file only.
            """,
        subcommands: [
            PasskeyRegister.self, PasskeyLogin.self, PasskeyList.self, PasskeyRename.self, PasskeyRemove.self,
            PasskeyAdd.self, PasskeyBridgeHost.self,
        ]
    )
}
