import Foundation
import LatchkeyAPI
import LatchkeyClient
import LatchkeyTestSupport
import Testing
import VirtualAuthenticator
import WebAuthn

#if canImport(Glibc)
import Glibc
#endif

/// Two `latchkey serve` processes on one PostgreSQL database; one is killed with SIGKILL between a ceremony's options
/// and its verification (issue 40). The ceremony finishes on the other instance, which goes on serving: nothing of a
/// ceremony lives in an instance.
@Suite("An instance killed with kill -9", .enabled(if: Backend.postgresURL != nil, "needs PostgreSQL"))
struct InstanceKillTests {
    @Test(.timeLimit(.minutes(2)))
    func aCeremonyBegunOnAKilledInstanceFinishesOnTheOther() async throws {
        try await TestDatabase.with(.postgres) { database in
            let first = try await ServeProcess(database: database.url)
            let second = try await ServeProcess(database: database.url)
            defer {
                first.stop()
                second.stop()
            }
            let authenticator = VirtualAuthenticator(configuration: .passkeyProvider)
            let begun = try await first.client().registrationOptions(RegistrationOptionsRequest(username: "alice"))
            let signIn = try await first.client().authenticationOptions(AuthenticationOptionsRequest(username: nil))

            kill(first.process.pid, SIGKILL)
            _ = first.process.waitUntilExit()
            await #expect(throws: LatchkeyClientError.self) { _ = try await first.client().me() }

            let credential = try await authenticator.register(options: begun.options, origin: ServeProcess.origin)
            let onSecond = second.client()
            let session = try await onSecond.registrationVerify(
                RegistrationVerifyRequest(ticket: begun.ticket, credential: credential))
            #expect(session.user.name == "alice")
            let assertion = try await authenticator.authenticate(options: signIn.options, origin: ServeProcess.origin)
            let signedIn = try await onSecond.authenticationVerify(
                AuthenticationVerifyRequest(ticket: signIn.ticket, credential: assertion))
            #expect(signedIn.user.name == "alice", "a sign-in begun on the killed instance finishes too")
            #expect(try await onSecond.me().name == "alice")
        }
    }
}
