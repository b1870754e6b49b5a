import Foundation
import LatchkeyAPI
import LatchkeyClient
import VirtualAuthenticator
import VirtualAuthenticatorClient

/// One simulated user of a load test: its own ``VirtualAuthenticator`` and API client. It registers a passkey
/// once with the client library, then signs in with it as often as it is asked, by the ``LoadTestDriver`` chosen.
struct LoadClient: Sendable {
    enum API: Sendable {
        case native(NativeClient)
        case conformance(ConformanceClient)
    }

    let username: String
    let api: API
    let authenticator: VirtualAuthenticatorAdapter
    /// The sign-in written on the wire (``LoadTestDriver/wire``); nil signs in through ``api``.
    let wire: WireSignIn?

    init(
        username: String, server: URL, origin: String, profile: PasskeyProfile, driver: LoadTestDriver = .wire,
        transport: any HTTPTransport
    ) {
        self.username = username
        switch profile {
        case .native: api = .native(NativeClient(server: server, transport: transport))
        case .conformance: api = .conformance(ConformanceClient(server: server, transport: transport))
        }
        authenticator = VirtualAuthenticatorAdapter(VirtualAuthenticator(), origin: origin)
        wire =
            switch driver {
            case .wire:
                WireSignIn(
                    profile: profile, username: username, server: server, authenticator: authenticator,
                    transport: transport)
            case .client: nil
            }
    }

    /// Creates the account and its passkey.
    func register() async throws(LatchkeyClientError) {
        switch api {
        case .native(let client): try await client.signUp(username: username, with: authenticator)
        case .conformance(let client):
            try await client.register(username: username, displayName: username, with: authenticator)
        }
    }

    /// One full login: options, the authenticator's assertion, verification and a new session.
    func signIn() async throws(LatchkeyClientError) {
        if let wire { return try await wire.signIn() }
        switch api {
        case .native(let client): try await client.signIn(username: username, with: authenticator)
        case .conformance(let client): try await client.authenticate(username: username, with: authenticator)
        }
    }
}
