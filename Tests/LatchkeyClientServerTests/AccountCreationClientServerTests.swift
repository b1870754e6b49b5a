import Foundation
import LatchkeyAPI
import LatchkeyClient
import LatchkeyTestSupport
import Testing
import VirtualAuthenticator
import WebAuthn

/// Sign-up through a passkey sign-up sheet (iOS 26's account creation), which collects the account's name while it
/// makes the passkey: options without a name, then a verify that names the account. The sheet is played by the
/// virtual authenticator; everything else is the real client and server over HTTP.
@Suite("Account creation: NativeClient against the real server")
struct AccountCreationClientServerTests {
    @Test(arguments: Backend.available)
    func theSheetNamesTheAccount(_ backend: Backend) async throws {
        try await LiveServer.run(backend) { server in
            let app = server.native()
            let phone = LiveServer.passkeyProvider()
            let started = try await app.accountCreationOptions()
            #expect(started.options.user.name.isEmpty, "the server does not know the name yet")
            let credential = try await phone.register(options: started.options)
            let created = try await app.accountCreationVerify(
                AccountCreationVerifyRequest(
                    ticket: started.ticket, credential: credential, username: "ada@example.com",
                    displayName: "Ada Lovelace"
                ))
            #expect(created.user.name == "ada@example.com" && created.user.displayName == "Ada Lovelace")
            #expect(try await app.me().name == "ada@example.com")
            #expect(try await server.native().signIn(with: phone).session.user.id == created.user.id)

            // The same name again: refused, and no second account or passkey is written.
            let again = try await server.native().accountCreationOptions()
            let other = try await LiveServer.passkeyProvider().register(options: again.options)
            let taken = await #expect(throws: LatchkeyClientError.self) {
                try await server.native().accountCreationVerify(
                    AccountCreationVerifyRequest(ticket: again.ticket, credential: other, username: "ADA@example.com"))
            }
            #expect(taken?.code == "user.nameTaken")
            #expect(try await server.store.credential(id: Data(other.rawId.bytes)) == nil)

            // A sheet's ticket does not finish at the ordinary sign-up verify (its account has no name), and an
            // ordinary sign-up's ticket does not take a name at the sheet's verify.
            let sheet = try await server.native().accountCreationOptions()
            let unnamed = await #expect(throws: LatchkeyClientError.self) {
                try await server.native().registrationVerify(
                    RegistrationVerifyRequest(
                        ticket: sheet.ticket,
                        credential: try await LiveServer.passkeyProvider().register(options: sheet.options)
                    ))
            }
            #expect(unnamed?.code == "ceremony.notFound")
            let ordinary = try await server.native().registrationOptions(RegistrationOptionsRequest(username: "bob"))
            let renamed = await #expect(throws: LatchkeyClientError.self) {
                try await server.native().accountCreationVerify(
                    AccountCreationVerifyRequest(
                        ticket: ordinary.ticket,
                        credential: try await LiveServer.passkeyProvider().register(options: ordinary.options),
                        username: "mallory"
                    ))
            }
            #expect(renamed?.code == "ceremony.notFound")
            #expect(try await server.store.user(named: "mallory") == nil)
            #expect(try await server.store.user(named: "bob") == nil)

            let blank = try await server.native().accountCreationOptions()
            let invalid = await #expect(throws: LatchkeyClientError.self) {
                try await server.native().accountCreationVerify(
                    AccountCreationVerifyRequest(
                        ticket: blank.ticket,
                        credential: try await LiveServer.passkeyProvider().register(options: blank.options),
                        username: "  "
                    ))
            }
            #expect(invalid?.code == "user.invalidName")
        }
    }
}
