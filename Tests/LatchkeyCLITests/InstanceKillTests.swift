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
    static let origin = "http://localhost:8080"

    /// A `latchkey serve` process on a loopback port the system picks (`--port 0`), read from its start line.
    final class Instance: Sendable {
        let process: ChildProcess
        let url: URL

        init(database: String) throws {
            process = try ChildProcess(
                try BinaryTests.executable().path,
                arguments: [
                    "serve", "--host", "127.0.0.1", "--port", "0", "--database", database,
                    "--rp-id", "localhost", "--origin", InstanceKillTests.origin, "--rate-limit", "0",
                ],
                mergingErrors: true)
            var output = ""
            let deadline = ContinuousClock.now + .seconds(30)
            while !output.contains("Latchkey listening"), ContinuousClock.now < deadline, process.isRunning {
                output += String(decoding: process.standardOutput.availableData, as: UTF8.self)
            }
            let marker = "Latchkey listening on http://127.0.0.1:"
            let start = try #require(output.range(of: marker), "latchkey serve did not start: \(output)").upperBound
            let port = try #require(Int(output[start...].prefix { $0.isNumber }), "no port in: \(output)")
            url = try #require(URL(string: "http://127.0.0.1:\(port)/"))
        }

        func client() -> NativeClient { NativeClient(server: url, transport: URLSessionTransport()) }
    }

    @Test(.timeLimit(.minutes(2)))
    func aCeremonyBegunOnAKilledInstanceFinishesOnTheOther() async throws {
        try await TestDatabase.with(.postgres) { database in
            let first = try Instance(database: database.url)
            let second = try Instance(database: database.url)
            defer {
                first.process.terminate()
                second.process.terminate()
            }
            let authenticator = VirtualAuthenticator(configuration: .passkeyProvider)
            let begun = try await first.client().registrationOptions(RegistrationOptionsRequest(username: "alice"))
            let signIn = try await first.client().authenticationOptions(AuthenticationOptionsRequest(username: nil))

            kill(first.process.pid, SIGKILL)
            _ = first.process.waitUntilExit()
            await #expect(throws: LatchkeyClientError.self) { _ = try await first.client().me() }

            let credential = try await authenticator.register(options: begun.options, origin: Self.origin)
            let onSecond = second.client()
            let session = try await onSecond.registrationVerify(
                RegistrationVerifyRequest(ticket: begun.ticket, credential: credential))
            #expect(session.user.name == "alice")
            let assertion = try await authenticator.authenticate(options: signIn.options, origin: Self.origin)
            let signedIn = try await onSecond.authenticationVerify(
                AuthenticationVerifyRequest(ticket: signIn.ticket, credential: assertion))
            #expect(signedIn.user.name == "alice", "a sign-in begun on the killed instance finishes too")
            #expect(try await onSecond.me().name == "alice")
        }
    }
}
