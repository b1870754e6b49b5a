import Foundation
import LatchkeyAPI
import LatchkeyStore
import Testing
import VirtualAuthenticator

@testable import LatchkeyServer

/// Email and time: an SMTP server that hangs does not hold a request up, and asking for a recovery code takes about as
/// long for an address no account has as for one that has it.
/// Timing-dependent: it runs in its own step of scripts/test.sh, with nothing else on the cores
/// (`LATCHKEY_TEST_TIMING=1 swift test --filter …`), and is skipped in the parallel run.
@Suite(
    "Email timing", .serialized, SMTPTestServer.required,
    .enabled(if: ProcessInfo.processInfo.environment["LATCHKEY_TEST_TIMING"] == "1"))
struct EmailTimingTests {
    @Test("an SMTP server that never answers: adding an address still answers at once; the code is tried again later")
    func hangingServer() async throws {
        // TLS from the first byte waits for the client's hello, and the client, speaking plain SMTP, for a greeting.
        let silent = try await SMTPTestServer(mode: .implicitTLS)
        var settings = ServerSettings.test
        settings.smtpURL = "smtp://localhost:\(silent.port)?ca=\(silent.caFile)&timeout=30"
        try await withServer(.sqlite, settings: settings) { server in
            let app = try await server.signedUpApp("hal", with: VirtualAuthenticator()).http
            let started = ContinuousClock.now
            let added = try await app.send(
                .post, APIPaths.Native.emails, json: EmailRequest(address: "hal@example.com"))
            #expect(added.status == .accepted, "\(added)")
            #expect(ContinuousClock.now - started < .seconds(2), "the request waited for SMTP")
            #expect(try await app.send(.get, APIPaths.Native.emails).status == .ok, "the server still serves")
        }
    }

    @Test("the SMTP transport gives a silent server up at its timeout")
    func transportTimeout() async throws {
        let silent = try await SMTPTestServer(mode: .implicitTLS)
        let started = ContinuousClock.now
        let failure = try await SMTPTransportTests.failure(
            "smtp://localhost:\(silent.port)?timeout=1&ca=\(silent.caFile)")
        #expect(failure?.isTemporary == true)
        #expect(ContinuousClock.now - started < .seconds(5), "\(ContinuousClock.now - started)")
    }

    @Test("a recovery code for an unknown address takes about as long to ask for as for a known one")
    func noEnumerationByTime() async throws {
        let smtp = try await SMTPTestServer()
        var settings = EmailTests.settings(smtp)
        settings.rateLimit = 0
        try await withServer(
            .sqlite, settings: settings,
            configure: { $0.passwordThrottle = PasswordThrottlePolicy(freeFailures: 10_000) }
        ) { server in
            let app = try await server.signedUpApp("ivy", with: VirtualAuthenticator()).http
            let code = try await EmailTests.addAddress(app, "ivy@example.com", smtp: smtp, count: 1)
            _ = try await app.send(
                .post, APIPaths.Native.emailVerify, json: EmailVerifyRequest(address: "ivy@example.com", code: code))
            let stranger = server.app()
            func time(_ email: String) async throws -> Duration {
                let started = ContinuousClock.now
                let reply = try await stranger.send(
                    .post, APIPaths.Native.recoveryEmail, json: RecoveryEmailRequest(email: email))
                #expect(reply.status == .accepted)
                return ContinuousClock.now - started
            }
            var known: [Duration] = []
            var unknown: [Duration] = []
            for round in 0..<30 {
                known.append(try await time("ivy@example.com"))
                unknown.append(try await time("nobody\(round)@example.com"))
            }
            let median = { (times: [Duration]) in times.sorted()[times.count / 2] }
            let (knownMedian, unknownMedian) = (median(known), median(unknown))
            let difference = knownMedian > unknownMedian ? knownMedian - unknownMedian : unknownMedian - knownMedian
            #expect(
                difference < .milliseconds(2) || difference < unknownMedian / 2,
                "median \(knownMedian) for a known address, \(unknownMedian) for unknown ones")
        }
    }
}
