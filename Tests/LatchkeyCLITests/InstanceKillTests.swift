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

    /// A `latchkey serve` process on a free loopback port.
    final class Instance: Sendable {
        let process: ChildProcess
        let url: URL

        init(database: String) throws {
            let port = try Self.freePort()
            process = try ChildProcess(
                try BinaryTests.executable().path,
                arguments: [
                    "serve", "--host", "127.0.0.1", "--port", String(port), "--database", database,
                    "--rp-id", "localhost", "--origin", InstanceKillTests.origin, "--rate-limit", "0",
                ],
                mergingErrors: true)
            url = try #require(URL(string: "http://127.0.0.1:\(port)/"))
            var output = ""
            let deadline = ContinuousClock.now + .seconds(30)
            while !output.contains("Latchkey listening"), ContinuousClock.now < deadline, process.isRunning {
                output += String(decoding: process.standardOutput.availableData, as: UTF8.self)
            }
            try #require(output.contains("Latchkey listening"), "latchkey serve did not start: \(output)")
        }

        func client() -> NativeClient { NativeClient(server: url, transport: URLSessionTransport()) }

        static func freePort() throws -> Int {
            let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
            defer { close(fd) }
            var address = sockaddr_in()
            address.sin_family = sa_family_t(AF_INET)
            address.sin_addr.s_addr = inet_addr("127.0.0.1")
            var length = socklen_t(MemoryLayout<sockaddr_in>.size)
            let bound = withUnsafeMutablePointer(to: &address) {
                $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                    bind(fd, $0, length) == 0 && getsockname(fd, $0, &length) == 0
                }
            }
            try #require(bound, "no free port")
            return Int(UInt16(bigEndian: address.sin_port))
        }
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
