import Foundation
import Hummingbird
import LatchkeyAPI
import LatchkeyStore
import Testing

@testable import LatchkeyServer

/// The password service as the server wires it, over a test server's store: to count the scrypt derivations a sign-in
/// runs and to set its clock, which a test through HTTP cannot do without timing it.
@Suite("Password service: work per sign-in and the throttle's clock")
struct PasswordServiceTests {
    static func passwords(of server: ServerHarness) -> PasswordService {
        ServerApplication.Services(
            configuration: server.configuration, store: server.store, metrics: ServerMetrics(), logger: quietLogger
        ).passwords
    }

    /// The code of the error `body` throws (``APIError/init(_:)``), or nil when it answers.
    static func errorCode(_ body: () async throws -> Response) async -> String? {
        do {
            _ = try await body()
            return nil
        } catch {
            return APIError(error).code
        }
    }

    @Test(
        "a wrong password, an unknown name, an account without a password and an over-long password each cost one scrypt, as the right password does",
        arguments: Backend.available
    )
    func oneScryptPerSignIn(_ backend: Backend) async throws {
        try await withServer(backend) { server in
            let passwords = Self.passwords(of: server)
            _ = try await passwords.register(
                PasswordRegisterRequest(username: "alice", password: alicePassword), client: SessionClient())
            try await server.store.createUser(
                StoredUser(userHandle: Data([1, 2, 3]), name: "bob", displayName: "Bob", createdAt: Date()))
            let attempts: [(name: String, password: String, refusal: String?)] = [
                ("alice", alicePassword, nil),
                ("alice", "not the password", "password.invalid"),
                ("nobody", "not the password", "password.invalid"),
                ("bob", alicePassword, "password.invalid"),
                ("alice", String(repeating: "long ", count: 2_000), "password.invalid"),
            ]
            for attempt in attempts {
                let before = passwords.hasher.derivationCount
                let refusal = await Self.errorCode {
                    try await passwords.signIn(
                        PasswordSignInRequest(username: attempt.name, password: attempt.password),
                        client: SessionClient())
                }
                #expect(refusal == attempt.refusal, "\(attempt.name)")
                #expect(
                    passwords.hasher.derivationCount - before == 1, "\(attempt.name): one scrypt, whatever the answer")
            }
        }
    }

    @Test("the throttle closes for its delay on the clock of the sign-in, then a success clears it")
    func throttleExpires() async throws {
        try await withServer(
            .sqlite,
            configure: {
                $0.passwordThrottle = PasswordThrottlePolicy(
                    freeFailures: 1, baseDelay: .seconds(4), maximumDelay: .seconds(4))
            }
        ) { server in
            let passwords = Self.passwords(of: server)
            let start = Date()
            _ = try await passwords.register(
                PasswordRegisterRequest(username: "alice", password: alicePassword), client: SessionClient(), now: start
            )
            func signIn(_ password: String, after seconds: TimeInterval) async -> String? {
                await Self.errorCode {
                    try await passwords.signIn(
                        PasswordSignInRequest(username: "alice", password: password), client: SessionClient(),
                        now: start.addingTimeInterval(seconds))
                }
            }
            #expect(await signIn("wrong password", after: 0) == "password.invalid")
            #expect(await signIn(alicePassword, after: 3.9) == "password.throttled")
            #expect(try await server.store.passwordThrottle(key: PasswordService.throttleKey("alice")) != nil)
            #expect(await signIn(alicePassword, after: 4.1) == nil)
            #expect(try await server.store.passwordThrottle(key: PasswordService.throttleKey("alice")) == nil)
        }
    }
}

/// A wrong password and an unknown name take about as long, by the wall clock. Timing is only meaningful on a quiet
/// machine, so this runs alone, after the parallel run (`LATCHKEY_TEST_TIMING=1 swift test --filter …`, as
/// `scripts/test.sh` does), and is skipped in the parallel run; ``PasswordServiceTests`` counts the work itself.
@Suite(
    "Password sign-in timing", .serialized,
    .enabled(if: ProcessInfo.processInfo.environment["LATCHKEY_TEST_TIMING"] == "1"))
struct PasswordTimingTests {
    @Test("a wrong password and an unknown name answer in about the same time", arguments: Backend.available)
    func sameTime(_ backend: Backend) async throws {
        try await withServer(
            backend, configure: { $0.passwordHashing = ScryptParameters(logN: 13, blockSize: 8, parallelization: 1) }
        ) { server in
            let app = server.app()
            #expect(try await app.passwordRegister("alice", alicePassword).status == .created)
            var wrongTimes: [Duration] = []
            var unknownTimes: [Duration] = []
            let clock = ContinuousClock()
            for round in 0..<3 {
                let wrongStart = clock.now
                #expect(
                    try await app.passwordSignIn("alice", "not the password \(round)").errorCode == "password.invalid")
                wrongTimes.append(clock.now - wrongStart)
                let unknownStart = clock.now
                #expect(
                    try await app.passwordSignIn("nobody", "not the password \(round)").errorCode == "password.invalid")
                unknownTimes.append(clock.now - unknownStart)
            }
            // Both run one scrypt (the unknown name against a dummy hash): neither is much faster.
            let fastestWrong = try #require(wrongTimes.min())
            let fastestUnknown = try #require(unknownTimes.min())
            #expect(fastestUnknown * 3 > fastestWrong, "unknown \(unknownTimes) vs wrong \(wrongTimes)")
            #expect(fastestWrong * 3 > fastestUnknown, "unknown \(unknownTimes) vs wrong \(wrongTimes)")
        }
    }
}
