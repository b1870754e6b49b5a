import LatchkeyClient
import VirtualAuthenticator
import VirtualAuthenticatorClient

/// What the management commands share: signing in with a local passkey, and reading the local store.
enum PasskeySession {
    /// A native client signed in with a local passkey (for `username`, or any discoverable one).
    static func signIn(_ options: PasskeyOptions, store: EncryptedFileCredentialStore, username: String?)
        async throws(CommandError) -> NativeClient
    {
        let client = NativeClient(server: try options.serverURL())
        let authenticator = try options.authenticator(
            store: store, choice: username.map(CredentialChoice.userName) ?? .mostRecent)
        do {
            try await client.signIn(username: username, with: authenticator)
        } catch {
            throw CommandError(error)
        }
        return client
    }

    /// The local credentials usable at the server: those whose RP ID is the server's host or a parent domain of
    /// it (a server at `login.example.com` serves passkeys for `example.com`), oldest first.
    static func localCredentials(_ store: EncryptedFileCredentialStore, for server: ServerURL)
        async throws(CommandError) -> [CredentialSource]
    {
        do {
            return try await store.all().filter { server.isOn(rpID: $0.rpID) }
        } catch {
            throw CommandError.store(error)
        }
    }
}
