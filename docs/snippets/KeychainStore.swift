import LatchkeyClient
import VirtualAuthenticator
import VirtualAuthenticatorClient

/// The software authenticator with its credentials in the data-protection keychain (tests on a device, a demo
/// mode, a command-line tool on macOS). Keychain failures are thrown, never an empty list.
func keychainAuthenticator(origin: String) -> VirtualAuthenticatorAdapter {
    let store = KeychainCredentialStore(service: "com.example.app.passkeys")
    return VirtualAuthenticatorAdapter(
        VirtualAuthenticator(configuration: .passkeyProvider, store: store), origin: origin)
}
