import Foundation
import Hummingbird
import HummingbirdTesting
import LatchkeyAPI
import LatchkeyClient
import LatchkeyServer
import LatchkeyStore
import Logging
import Testing
import VirtualAuthenticator
import VirtualAuthenticatorClient
import WebAuthn

@testable import LatchkeyCLI

/// `latchkey loadtest` against a real server on loopback (SQLite in a temporary file).
@Suite("latchkey loadtest")
struct LoadTestCommandTests {
    /// The bearer token the test servers' `/metrics` require.
    static let metricsToken = String(repeating: "load-test-", count: 4)

    /// Runs `body` with the base URL of a live server on a fresh SQLite file, rate limiting off, `/metrics` behind
    /// ``metricsToken`` (or off).
    private func withServer(metrics: Bool = true, _ body: @escaping @Sendable (String) async throws -> Void)
        async throws
    {
        try await withServer(metrics: metrics) { server, _ in try await body(server) }
    }

    /// The same, with the server's store too.
    private func withServer(
        metrics: Bool = true, _ body: @escaping @Sendable (String, any LatchkeyStore) async throws -> Void
    ) async throws {
        let path = FileManager.default.temporaryDirectory.appendingPathComponent(
            "latchkey-loadtest-\(UUID().uuidString).sqlite"
        ).path
        defer {
            for suffix in ["", "-wal", "-shm"] { try? FileManager.default.removeItem(atPath: path + suffix) }
        }
        var settings = ServerSettings()
        settings.rateLimit = 0
        settings.database = path
        var configuration = try ServerConfiguration(settings)
        configuration.metricsToken = metrics ? Self.metricsToken : nil
        var logger = Logger(label: "latchkey.loadtest.test")
        logger.logLevel = .error
        let store = try configuration.database.makeStore()
        let app = ServerApplication.make(configuration: configuration, store: store, logger: logger)
        try await app.test(.live) { client in
            try await body("http://127.0.0.1:\(try #require(client.port))", store)
        }
    }

    @Test("every client signs in at least once, even when the run is over before its first sign-in starts")
    func atLeastOneSignInEach() async throws {
        try await withServer { server in
            let url = try #require(URL(string: server))
            let target = LoadTestRunner.Target(
                server: url, origin: "http://localhost:8080", metrics: url.appendingPathComponent("metrics"),
                metricsToken: Self.metricsToken
            )
            let result = await LoadTestRunner(targets: [target], clients: 2, duration: .zero, profile: .native).run()
            #expect(result.registered == 2)
            #expect(result.logins == 2, "one sign-in per client")
            #expect(result.errors.isEmpty, "\(result.errors)")
        }
    }

    @Test(
        "each profile and driver registers every client, signs in repeatedly with no errors, and ends with the result lines",
        arguments: ["native", "conformance"], ["wire", "client"])
    func runsFullLogins(_ profile: String, driver: String) async throws {
        try await withServer { server in
            let result = await CLIHarness.run([
                "loadtest", "--server", server, "--origin", "http://localhost:8080", "--clients", "3", "--duration",
                "1",
                "--profile", profile, "--driver", driver, "--no-baseline", "--metrics-token", Self.metricsToken,
            ])
            #expect(result.status == 0, "\(result.output)")
            #expect(result.lines.first?.contains("\(profile) profile, \(driver) driver") == true, "\(result.output)")
            #expect(result.lines.contains { $0.hasPrefix("registered: 3 of 3 passkeys") }, "\(result.output)")
            let tail = Array(result.lines.suffix(7))
            #expect(
                tail.map { $0.split(separator: "=").first.map(String.init) } == [
                    "logins_per_second", "p50_ms", "p99_ms", "errors", "server_cpu_us_per_login",
                    "client_cpu_us_per_login", "server_peak_rss_mb",
                ])
            #expect(tail[3] == "errors=0")
            let rate = try #require(result.value("logins_per_second"))
            #expect(rate > 0)
            let p50 = try #require(result.value("p50_ms"))
            let p99 = try #require(result.value("p99_ms"))
            #expect(p50 > 0 && p50 <= p99)
            // The server read its CPU time from /metrics before and after the logins.
            #expect(try #require(result.value("server_cpu_us_per_login")) > 0)
            #expect(try #require(result.value("client_cpu_us_per_login")) > 0)
            #expect(try #require(result.value("server_peak_rss_mb")) > 1)
        }
    }

    @Test("the baseline: one raw P-256 verification, and the server's CPU per login in those units")
    func reportsBaselineRatio() async throws {
        try await withServer { server in
            let result = await CLIHarness.run([
                "loadtest", "--server", server, "--origin", "http://localhost:8080", "--clients", "2", "--duration",
                "1",
                "--metrics-token", Self.metricsToken,
            ])
            #expect(result.status == 0, "\(result.output)")
            let raw = try #require(result.value("raw_verify_us"))
            let cpu = try #require(result.value("server_cpu_us_per_login"))
            let ratio = try #require(result.value("server_cpu_per_login_in_raw_verifies"))
            #expect(raw > 0)
            #expect(abs(ratio - cpu / raw) <= 0.01 * ratio + 0.01)
        }
    }

    /// A load-test user with its passkey registered (through the client library), on its own connection.
    private func registeredUser(
        _ name: String, profile: PasskeyProfile, server: String
    ) async throws -> (LoadClient, KeepAliveHTTPTransport) {
        let transport = KeepAliveHTTPTransport()
        let user = LoadClient(
            username: name, server: try #require(URL(string: server)), origin: "http://localhost:8080",
            profile: profile, transport: transport
        )
        try await user.register()
        return (user, transport)
    }

    @Test(
        "the wire driver's sign-ins are real: the server verified one assertion per login (the passkey's sign count), and made a session each",
        arguments: [PasskeyProfile.native, .conformance])
    func wireSignInsAreVerified(_ profile: PasskeyProfile) async throws {
        try await withServer { server, store in
            let (user, transport) = try await registeredUser("wire-\(profile)", profile: profile, server: server)
            #expect(user.wire != nil, "the wire driver is the default")
            let stored = try #require(try await store.user(named: "wire-\(profile)"))
            _ = try await store.deleteSessions(ofUser: stored.id)
            for _ in 0..<5 { try await user.signIn() }
            await transport.close()

            let credential = try #require(try await store.credentials(ofUser: stored.id).first)
            #expect(
                credential.signCount == 5,
                "one verified assertion per sign-in, each counted by the virtual authenticator")
            let devices = try await store.sessions(ofUser: stored.id, now: Date()).map(\.device)
            #expect(
                devices == Array(repeating: profile == .native ? "LatchkeyLoad" : "Chrome on macOS", count: 5),
                "a session per sign-in (a cookie on the conformance profile), labelled from the profile's user agent")
        }
    }

    @Test(
        "the wire driver reports a refused sign-in by the server's code, as the client library does",
        arguments: [PasskeyProfile.native, .conformance])
    func wireRefusalIsTheServersCode(_ profile: PasskeyProfile) async throws {
        try await withServer { server, _ in
            let (user, transport) = try await registeredUser("wire-refused", profile: profile, server: server)
            try await user.signIn()
            // The same passkey, claimed from an origin the server does not accept.
            let elsewhere = WireSignIn(
                profile: profile, username: "wire-refused", server: try #require(URL(string: server)),
                authenticator: VirtualAuthenticatorAdapter(
                    user.authenticator.authenticator, origin: "http://localhost:9999"),
                transport: transport
            )
            await #expect {
                try await elsewhere.signIn()
            } throws: { error in
                guard case LatchkeyClientError.server(_, "originNotAllowed", _) = error else { return false }
                return true
            }
            await transport.close()
        }
    }

    @Test("the wire driver's verification body is byte for byte what the client library sends")
    func wireBodyMatchesTheClientLibrary() async throws {
        let authenticator = VirtualAuthenticator()
        let origin = "https://example.com"
        _ = try await authenticator.register(
            options: PublicKeyCredentialCreationOptions(
                rp: .init(id: "example.com", name: "Example"),
                user: .init(id: [1, 2, 3], name: "ada", displayName: "Ada"),
                challenge: [UInt8](repeating: 7, count: 32), pubKeyCredParams: [.init(alg: .es256)],
                authenticatorSelection: .init(residentKey: .required)
            ),
            origin: origin
        )
        let credential = try await authenticator.authenticate(
            options: PublicKeyCredentialRequestOptions(
                challenge: [UInt8](repeating: 9, count: 32), rpId: "example.com"), origin: origin
        )
        #expect(credential.response.userHandle != nil)
        let encoder = APIJSON.makeEncoder()
        let ticket = "AgAH-ticket_with \"quotes\""
        #expect(
            try WireSignIn.verifyBody(ticket: ticket, credential: credential)
                == Array(try encoder.encode(AuthenticationVerifyRequest(ticket: ticket, credential: credential))))
        #expect(try WireSignIn.verifyBody(ticket: nil, credential: credential) == Array(try encoder.encode(credential)))
        // Extension outputs are kept, not dropped.
        var withExtensions = credential
        withExtensions.clientExtensionResults = [
            "credProps": .object(["rk": .bool(true)]), "largeBlob": .object(["written": .bool(false)]),
        ]
        #expect(
            try WireSignIn.verifyBody(ticket: ticket, credential: withExtensions)
                == Array(try encoder.encode(AuthenticationVerifyRequest(ticket: ticket, credential: withExtensions))))
    }

    @Test("several --server instances sharing one store share the clients; their CPU is summed")
    func severalInstances() async throws {
        try await withServer { first in
            try await withServer { second in
                let result = await CLIHarness.run([
                    "loadtest", "--server", first, "--server", second, "--origin", "http://localhost:8080", "--clients",
                    "4",
                    "--duration", "1", "--no-baseline", "--metrics-token", Self.metricsToken,
                ])
                #expect(result.status == 0, "\(result.output)")
                #expect(
                    result.lines.first?.contains(first) == true && result.lines.first?.contains(second) == true,
                    "\(result.output)")
                #expect(result.lines.contains("errors=0"))
                let cpu = try #require(result.value("server_cpu_us_per_login"))
                #expect(cpu > 0)
            }
        }
    }

    @Test(
        "a server whose /metrics does not answer (off, or another token) leaves the CPU per login unknown; the run still counts",
        arguments: [(false, LoadTestCommandTests.metricsToken), (true, "not-the-token")])
    func metricsUnavailable(_ metrics: Bool, token: String) async throws {
        try await withServer(metrics: metrics) { server in
            let result = await CLIHarness.run([
                "loadtest", "--server", server, "--origin", "http://localhost:8080", "--clients", "1", "--duration",
                "0.2",
                "--no-baseline", "--metrics-token", token,
            ])
            #expect(result.status == 0, "\(result.output)")
            #expect(result.lines.contains("server_cpu_us_per_login=unknown"), "\(result.output)")
            #expect(result.lines.contains("server_peak_rss_mb=unknown"), "\(result.output)")
            #expect(result.value("logins_per_second") != nil, "\(result.output)")
        }
    }

    @Test("a wrong origin is reported by code and the command exits 1")
    func serverRefusalsAreCounted() async throws {
        try await withServer { server in
            let result = await CLIHarness.run([
                "loadtest", "--server", server, "--origin", "http://localhost:9999", "--clients", "2", "--duration",
                "0.2", "--no-baseline",
            ])
            #expect(result.status == 1)
            #expect(result.lines.contains("  originNotAllowed: 2"), "\(result.output)")
            #expect(result.lines.contains("errors=2"))
            #expect(result.output.contains("\"loadtest.errors\""))
        }
    }

    @Test("an unreachable server is a transport error, not a crash")
    func unreachableServer() async {
        let result = await CLIHarness.run([
            "loadtest", "--server", "http://127.0.0.1:1", "--clients", "1", "--duration", "0.1", "--no-baseline",
        ])
        #expect(result.status == 1)
        #expect(result.lines.contains("  client.transport: 1"), "\(result.output)")
        #expect(result.lines.contains("server_cpu_us_per_login=unknown"), "\(result.output)")
    }

    @Test(
        "bad flags are usage errors with their own code",
        arguments: [
            (["--server", "ftp://example.com"], "usage.badServer"),
            (["--server", "http://localhost:1", "--clients", "0"], "usage.clients"),
            (["--server", "http://localhost:1", "--duration", "0"], "usage.duration"),
            (["--server", "http://localhost:1", "--event-loops", "0"], "usage.eventLoops"),
        ])
    func badFlags(_ flags: [String], code: String) async {
        let result = await CLIHarness.run(["loadtest"] + flags)
        #expect(result.status == 2, "\(result.output)")
        #expect(result.errorCode == code, "\(result.output)")
    }

    @Test(
        "the load generator's event loops come from --event-loops, one by default; what the command refuses leaves them alone"
    )
    func eventLoopsBeforeTheRuntimeStarts() {
        #expect(Latchkey.loadTestEventLoops(["--server", "http://localhost:1"]) == 1)
        #expect(Latchkey.loadTestEventLoops(["--server", "http://localhost:1", "--event-loops", "2"]) == 2)
        #expect(Latchkey.loadTestEventLoops(["--server", "http://localhost:1", "--event-loops", "0"]) == nil)
        #expect(Latchkey.loadTestEventLoops(["--server", "http://localhost:1", "--event-loops", "many"]) == nil)
    }

    @Test("percentiles use the nearest rank")
    func percentiles() {
        var histogram = LatencyHistogram()
        for value in 1...100 { histogram.record(Double(value)) }
        let sorted = histogram.sorted()
        #expect(LatencyHistogram.percentile(50, of: sorted) == 50)
        #expect(LatencyHistogram.percentile(99, of: sorted) == 99)
        #expect(LatencyHistogram.percentile(100, of: sorted) == 100)
        #expect(LatencyHistogram.percentile(50, of: []) == 0)
        #expect(histogram.mean == 50.5)
    }
}

/// `WireSignIn` against answers a server should not give: each is a specific error, never a crash or a success.
@Suite("latchkey loadtest: the wire driver's answers")
struct WireSignInAnswerTests {
    /// Answers the requests in order with the given responses.
    actor CannedTransport: HTTPTransport {
        private var responses: [LatchkeyClient.HTTPResponse]
        private(set) var requests: [LatchkeyClient.HTTPRequest] = []

        init(_ responses: [LatchkeyClient.HTTPResponse]) {
            self.responses = responses
        }

        func send(_ request: LatchkeyClient.HTTPRequest) async throws(LatchkeyClientError)
            -> LatchkeyClient.HTTPResponse
        {
            requests.append(request)
            guard !responses.isEmpty else { throw .transport("no more canned responses") }
            return responses.removeFirst()
        }
    }

    static let origin = "http://localhost:8080"

    /// A wire sign-in whose authenticator holds one discoverable passkey for `localhost`.
    private func signIn(_ profile: PasskeyProfile, answers: [LatchkeyClient.HTTPResponse]) async throws -> (
        WireSignIn, CannedTransport
    ) {
        let authenticator = VirtualAuthenticator()
        _ = try await authenticator.register(
            options: PublicKeyCredentialCreationOptions(
                rp: .init(id: "localhost", name: "Latchkey"), user: .init(id: [7], name: "ada", displayName: "Ada"),
                challenge: [UInt8](repeating: 1, count: 32), pubKeyCredParams: [.init(alg: .es256)],
                authenticatorSelection: .init(residentKey: .required)
            ),
            origin: Self.origin
        )
        let transport = CannedTransport(answers)
        let wire = WireSignIn(
            profile: profile, username: "ada", server: try #require(URL(string: "http://127.0.0.1:1")),
            authenticator: VirtualAuthenticatorAdapter(authenticator, origin: Self.origin), transport: transport
        )
        return (wire, transport)
    }

    private static func json(_ text: String, status: Int = 200) -> LatchkeyClient.HTTPResponse {
        LatchkeyClient.HTTPResponse(
            status: status, headers: ["Content-Type": "application/json"], body: Array(text.utf8))
    }

    private static let challenge = Base64URL.encode([UInt8](repeating: 9, count: 32))

    @Test(
        "options that are not JSON, or hold no challenge or no ticket, are unexpected answers",
        arguments: [
            (PasskeyProfile.native, "not json", "cannot be read"),
            (.native, #"{"options":{"rpId":"localhost"},"ticket":"t"}"#, "no ticket and challenge"),
            (.native, #"{"options":{"challenge":"\#(WireSignInAnswerTests.challenge)"}}"#, "no ticket and challenge"),
            (.native, #"{"options":{"challenge":"not base64!"},"ticket":"t"}"#, "is not base64url"),
            (.conformance, #"{"status":"ok","errorMessage":""}"#, "no ticket and challenge"),
            (.native, #"{"options":{},"ticket":"t"} trailing"#, "cannot be read"),
            (
                .native,
                #"{"options":{"challenge":"\#(WireSignInAnswerTests.challenge)","allowCredentials":[{"id":"!!"}]},"ticket":"t"}"#,
                "allowCredentials.id' is not base64url"
            ),
        ])
    func malformedOptions(_ profile: PasskeyProfile, body: String, expected: String) async throws {
        let (wire, transport) = try await signIn(profile, answers: [Self.json(body)])
        await #expect {
            try await wire.signIn()
        } throws: { error in
            guard case LatchkeyClientError.unexpectedResponse(200, let message) = error else { return false }
            return message.contains(expected)
        }
        #expect(await transport.requests.count == 1, "nothing is sent after a bad answer")
    }

    @Test("a refusal is the server's code: a native error body, a conformance failure with status 200 or 4xx")
    func refusals() async throws {
        let cases: [(PasskeyProfile, LatchkeyClient.HTTPResponse, Int, String)] = [
            (
                .native, Self.json(#"{"error":{"code":"request.rateLimited","message":"slow down"}}"#, status: 429),
                429, "request.rateLimited"
            ),
            (
                .conformance,
                Self.json(#"{"status":"failed","errorMessage":"no such user","errorCode":"user.notFound"}"#), 200,
                "user.notFound"
            ),
            (.conformance, Self.json(#"{"status":"failed","errorMessage":"bad"}"#, status: 400), 400, "failed"),
        ]
        for (profile, answer, status, code) in cases {
            let (wire, _) = try await signIn(profile, answers: [answer])
            await #expect {
                try await wire.signIn()
            } throws: { error in
                guard case LatchkeyClientError.server(status, code, _) = error else { return false }
                return true
            }
        }
    }

    @Test(
        "a verification answer that signs no one in is an error; one that does is a sign-in",
        arguments: [PasskeyProfile.native, .conformance])
    func verificationAnswers(_ profile: PasskeyProfile) async throws {
        let options =
            profile == .native
            ? #"{"options":{"challenge":"\#(Self.challenge)","rpId":"localhost"},"ticket":"T1"}"#
            : #"{"status":"ok","errorMessage":"","challenge":"\#(Self.challenge)","rpId":"localhost","allowCredentials":[]}"#
        let signedIn =
            profile == .native
            ? #"{"session":{"token":"abc","expiresAt":"2026-11-25T10:00:00Z"}}"# : #"{"status":"ok","errorMessage":""}"#
        let empty =
            profile == .native ? #"{"session":{"token":""}}"# : #"{"status":"failed","errorMessage":"bad signature"}"#

        var (wire, transport) = try await signIn(profile, answers: [Self.json(options), Self.json(signedIn)])
        try await wire.signIn()
        let sent = await transport.requests
        #expect(
            sent.map(\.url.path)
                == (profile == .native
                    ? ["/v1/passkeys/authentication/options", "/v1/passkeys/authentication/verify"]
                    : ["/assertion/options", "/assertion/result"]))
        let verify = try #require(sent.last?.body)
        if profile == .native {
            #expect(
                try APIJSON.makeDecoder().decode(AuthenticationVerifyRequest.self, from: Data(verify)).ticket == "T1")
        } else {
            #expect(
                try APIJSON.makeDecoder().decode(AuthenticationCredential.self, from: Data(verify)).response.userHandle?
                    .bytes == [7])
        }

        (wire, transport) = try await signIn(profile, answers: [Self.json(options), Self.json(empty)])
        await #expect(throws: LatchkeyClientError.self) { try await wire.signIn() }
    }
}
