import Foundation
import LatchkeyAPI
import Testing
import VirtualAuthenticator
import WebAuthn

/// The data the WebAuthn signal API needs, in the answers that change or show what the server accepts.
@Suite("Signals")
struct SignalTests {
    @Test(
        "Sign-up, sign-in, list, rename and remove carry the accepted credential IDs and the user's names",
        arguments: Backend.available)
    func signals(_ backend: Backend) async throws {
        try await withServer(backend) { server in
            let phone = VirtualAuthenticator()
            let key = VirtualAuthenticator()
            let client = NativeClient(http: server.app())
            let signUp: SessionResponse = try await client.signUp("alice", displayName: "Alice", with: phone).decode()
            await client.http.setBearer(signUp.session.token)
            let user = try #require(try await server.store.user(named: "alice"))
            let expectedUserID = Base64URL.encode(user.userHandle)
            let first = try #require(signUp.signals)
            #expect(first.rpId == "localhost")
            #expect(first.userId == expectedUserID)
            #expect(first.name == "alice")
            #expect(first.displayName == "Alice")
            #expect(first.allAcceptedCredentialIds.count == 1)

            #expect(try await client.addPasskey(with: key).status == .created)
            let signIn: SessionResponse = try await NativeClient(http: server.app()).signIn("alice", with: phone)
                .decode()
            #expect(Set(try #require(signIn.signals).allAcceptedCredentialIds).count == 2)
            #expect(signIn.passkeyUpgrade == nil)

            let list: PasskeyList = try await client.http.send(.get, APIPaths.Native.passkeys).decode()
            #expect(list.signals?.allAcceptedCredentialIds == list.passkeys.map(\.id))
            #expect(list.signals?.userId == expectedUserID)

            let renamed: PasskeySummary = try await client.http
                .send(.patch, APIPaths.Native.passkey(id: list.passkeys[1].id), json: RenamePasskeyRequest(name: "Key"))
                .decode()
            #expect(renamed.name == "Key")
            #expect(renamed.signals?.allAcceptedCredentialIds == list.passkeys.map(\.id))

            let removed = try await client.http.send(.delete, APIPaths.Native.passkey(id: list.passkeys[1].id))
            #expect(removed.status == .ok)
            let after = try #require(try removed.decode(PasskeyRemoval.self).signals)
            #expect(after.allAcceptedCredentialIds == [list.passkeys[0].id])
            #expect(after.displayName == "Alice")

            // The removed key signing in: 404 with what signalUnknownCredential needs.
            let usernameless = try await NativeClient(http: server.app()).signIn(nil, with: key)
            #expect(usernameless.status == .notFound)
            let detail = try usernameless.decode(APIErrorBody.self).error
            #expect(detail.code == "credential.notFound")
            #expect(detail.credentialId == list.passkeys[1].id)
            #expect(detail.rpId == "localhost")
        }
    }
}
