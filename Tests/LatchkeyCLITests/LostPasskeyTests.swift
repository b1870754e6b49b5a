import Foundation
import LatchkeyAPI
import LatchkeyClient
import LatchkeyTestSupport
import Testing
import VirtualAuthenticator
import VirtualAuthenticatorClient

/// A lost phone, end to end: `latchkey serve` sending email through a real SMTP server (aiosmtpd, STARTTLS and AUTH),
/// and `NativeClient` over HTTP. A user signs up with a passkey and verifies an address, loses the passkey (the
/// software authenticator's key is deleted), gets back in each way there is (a code sent by email, a recovery code, an
/// operator's recovery link), registers a new passkey and signs in with it; the address is told, and the way back in
/// works once.
@Suite("A lost passkey, against latchkey serve", .serialized, SMTPTestServer.required)
struct LostPasskeyTests {
    enum Way: String, CaseIterable, Sendable {
        case emailCode, recoveryCode, operatorLink
    }

    static let address = "nora@example.com"

    @Test(.timeLimit(.minutes(2)), arguments: Way.allCases)
    func recoverAndSignIn(_ way: Way) async throws {
        let scratch = ScratchDirectory(prefix: "latchkey-lost")
        let database = "sqlite://" + scratch.path("db.sqlite")
        let smtp = try await SMTPTestServer()
        let serve = try await ServeProcess(database: database, environment: ["LATCHKEY_SMTP_URL": smtp.url()])
        defer { serve.stop() }

        let phone = VirtualAuthenticator(configuration: .passkeyProvider)
        let onPhone = VirtualAuthenticatorAdapter(phone, origin: ServeProcess.origin)
        let client = serve.client(reauthenticator: onPhone)
        try await client.signUp(username: "nora", with: onPhone)
        try await client.addEmail(Self.address)
        let code = try #require(try await smtp.waitForMessages(1).last?.code)
        #expect(try await client.verifyEmail(Self.address, code: code).primary)
        let added = try await smtp.waitForMessages(2).last
        #expect(added?.header("Subject") == "An email address was added to your Latchkey account")
        let recoveryCodes = way == .recoveryCode ? try await client.generateRecoveryCodes() : []

        // The phone is lost: its key is gone, and it signs in no more.
        for credential in try await phone.store.credentials(rpID: "localhost") {
            try await phone.store.delete(id: credential.id)
        }
        await #expect(throws: LatchkeyClientError.self) {
            try await serve.client().signIn(username: "nora", with: onPhone)
        }

        let newPhone = VirtualAuthenticatorAdapter(
            VirtualAuthenticator(configuration: .passkeyProvider), origin: ServeProcess.origin)
        let elsewhere = serve.client()
        let spend: @Sendable (NativeClient) async throws(LatchkeyClientError) -> Void
        switch way {
        case .emailCode:
            try await elsewhere.requestRecoveryCode(email: Self.address)
            let message = try #require(try await smtp.waitForMessages(3).last)
            #expect(message.to == [Self.address] && message.tls && message.login == "latchkey")
            let code = try #require(message.code)
            spend = { client throws(LatchkeyClientError) in
                try await client.recover(email: Self.address, code: code, with: newPhone)
            }
        case .recoveryCode:
            #expect(recoveryCodes.count == 10)
            let code = try #require(recoveryCodes.first)
            spend = { client throws(LatchkeyClientError) in
                try await client.recover(username: "nora", code: code, with: newPhone)
            }
        case .operatorLink:
            let issued = await CLIHarness.run([
                "recovery-link", "--database", database, "--username", "nora", "--origin", ServeProcess.origin,
            ])
            #expect(issued.status == 0, "\(issued.output)")
            let link = try #require(try issued.json()["url"]?.stringValue)
            #expect(link.hasPrefix(ServeProcess.origin + "/#recover="))
            let token = String(link.dropFirst((ServeProcess.origin + "/#recover=").count))
            spend = { client throws(LatchkeyClientError) in
                try await client.recover(linkToken: token, with: newPhone)
            }
        }
        try await spend(elsewhere)
        #expect(try await elsewhere.me().name == "nora")

        // The new passkey signs in from a fresh client; the account has the lost key's record and the new one.
        let signedIn = serve.client()
        try await signedIn.signIn(username: "nora", with: newPhone)
        #expect(try await signedIn.passkeys().count == 2)

        // The address is told, once.
        let sent = way == .emailCode ? 4 : 3
        let notice = try #require(try await smtp.waitForMessages(sent).last)
        #expect(notice.header("Subject") == "Your Latchkey account was recovered" && notice.to == [Self.address])
        try await Task.sleep(for: .milliseconds(300))
        #expect(smtp.messages().count == sent, "\(smtp.messages().map { $0.header("Subject") ?? "" })")

        // The way back in works once.
        let again = await #expect(throws: LatchkeyClientError.self) { try await spend(serve.client()) }
        #expect(again?.code == "recovery.invalid")
    }
}
