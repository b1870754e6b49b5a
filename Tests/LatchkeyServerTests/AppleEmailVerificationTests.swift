import AppleStandIn
import Foundation
import LatchkeyAPI
import LatchkeyStore
import Testing

/// Accounts are named after an Apple email only when Apple verified it; a client's email is never verified (issue 14, finding 7).
@Suite("Sign in with Apple: verified emails")
struct AppleEmailVerificationTests {
    /// Signs in `subject` with a token carrying `email` and `email_verified: verified`, plus `clientEmail` in the body.
    private func signIn(
        _ apple: AppleServer, subject: String, email: String?, verified: Bool, clientEmail: String? = nil
    ) async throws -> SessionResponse {
        let nonce = try await apple.issueNonce()
        let token = try await apple.identityToken(subject: subject, rawNonce: nonce, email: email) { claims in
            if email != nil { claims["email_verified"] = .string(verified ? "true" : "false") }
        }
        var body: [String: Any] = [
            "identityToken": token, "rawNonce": nonce,
            "authorizationCode": await apple.standIn.issueCode(for: .app(AppleServer.bundleID), subject: subject),
        ]
        if let clientEmail { body["email"] = clientEmail }
        let reply = try await apple.server.app().send(.post, APIPaths.Apple.signIn, body: JSONObject.buffer(body))
        #expect(reply.status == .created, "\(reply)")
        return try reply.decode()
    }

    @Test(arguments: Backend.available)
    func onlyAVerifiedEmailNamesTheAccount(_ backend: Backend) async throws {
        try await withAppleServer(backend) { apple throws in
            let verified = try await signIn(apple, subject: "001.verified", email: "grace@example.com", verified: true)
            #expect(verified.user.name == "grace@example.com")
            #expect(try await apple.server.store.appleLink(subject: "001.verified")?.emailVerified == true)

            let unverified = try await signIn(
                apple, subject: "001.unverified", email: "alan@example.com", verified: false)
            #expect(unverified.user.name.hasPrefix("apple-"), "an unverified email does not name the account")
            let link = try #require(try await apple.server.store.appleLink(subject: "001.unverified"))
            #expect(link.email == "alan@example.com" && !link.emailVerified)
        }
    }

    @Test(arguments: Backend.available)
    func anEmailTheClientSentIsKeptAsUnverified(_ backend: Backend) async throws {
        try await withAppleServer(backend) { apple throws in
            let session = try await signIn(
                apple, subject: "001.client", email: nil, verified: false, clientEmail: "victim@example.com")
            #expect(session.user.name.hasPrefix("apple-"))
            let link = try #require(try await apple.server.store.appleLink(subject: "001.client"))
            #expect(link.email == "victim@example.com")
            #expect(!link.emailVerified)
        }
    }
}
