import Foundation
import LatchkeyAPI
import LatchkeyClient
import LatchkeyServer
import LatchkeyTestSupport
import Testing
import VirtualAuthenticator
import VirtualAuthenticatorClient

/// `NativeClient`'s email calls over real HTTP, with a real SMTP server (aiosmtpd) that the codes are read from.
@Suite("Client email", SMTPTestServer.required)
struct EmailClientServerTests {
    @Test("add, verify, list, recover a lost passkey's account by email, remove; stale sessions re-authenticate")
    func emailAndRecovery() async throws {
        let smtp = try await SMTPTestServer()
        try await LiveServer.run(.sqlite, configure: { $0.smtpURL = smtp.url() }) { server in
            let phone = LiveServer.passkeyProvider()
            let client = NativeClient(server: server.url, transport: URLSessionTransport(), reauthenticator: phone)
            try await client.signUp(username: "gina", with: phone)
            let added = try await client.addEmail("gina@example.com")
            #expect(!added.verified)
            let code = try #require(try await smtp.waitForMessages(1).last?.code)
            #expect(try await client.verifyEmail("gina@example.com", code: code).primary)
            #expect(try await client.emails().map(\.address) == ["gina@example.com"])
            _ = try await smtp.waitForMessages(2)

            let newPhone = VirtualAuthenticatorAdapter(VirtualAuthenticator(), origin: LiveServer.origin)
            let elsewhere = server.native()
            try await elsewhere.requestRecoveryCode(email: "gina@example.com")
            let recoveryCode = try #require(try await smtp.waitForMessages(3).last?.code)
            try await elsewhere.recover(email: "gina@example.com", code: recoveryCode, with: newPhone)
            #expect(try await elsewhere.me().name == "gina")

            // A stale session: the client re-authenticates with its passkey and removes the address.
            try await server.database.ageSessionVerifications()
            try await client.removeEmail("gina@example.com")
            #expect(try await client.emails().isEmpty)
        }
    }
}
