import Foundation
import HTTPTypes
import LatchkeyAPI
import LatchkeyServer
import Testing
import VirtualAuthenticator
import WebAuthn

/// Well-known files, health, metrics, the page at `/`, error bodies, body and rate limits.
@Suite("Operations")
struct OperationsTests {
    private static var wellKnownSettings: ServerSettings {
        var settings = ServerSettings.test
        settings.rpID = "example.com"
        settings.origins = ["https://example.com", "https://login.example.com"]
        settings.relatedOrigins = ["https://example.co.uk"]
        settings.appleAppIDs = ["ABCDE12345.com.example.app"]
        settings.androidApps = ["com.example.app:" + Array(repeating: "AB", count: 32).joined(separator: ":")]
        return settings
    }

    @Test func wellKnownFilesAreJSONWithoutRedirect() async throws {
        try await withServer(.sqlite, settings: Self.wellKnownSettings) { server in
            let app = server.app()
            // Twice: the body is encoded once and shared, and every answer carries all of it.
            for _ in 0..<2 {
                let association = try await app.send(.get, APIPaths.WellKnown.appleAppSiteAssociation)
                #expect(association.status == .ok)
                #expect(association.headers[.contentType]?.hasPrefix("application/json") == true)
                #expect(association.headers[.cacheControl] == "public, max-age=3600")
                #expect(association.text == #"{"webcredentials":{"apps":["ABCDE12345.com.example.app"]}}"#)
            }

            let links = try await app.send(.get, APIPaths.WellKnown.assetLinks)
            #expect(links.status == .ok)
            #expect(links.headers[.contentType]?.hasPrefix("application/json") == true)
            let statements = try #require(try JSONSerialization.jsonObject(with: Data(links.body)) as? [[String: Any]])
            let statement = try #require(statements.first)
            #expect(
                statement["relation"] as? [String] == [
                    "delegate_permission/common.handle_all_urls", "delegate_permission/common.get_login_creds",
                ])
            let target = try #require(statement["target"] as? [String: Any])
            #expect(target["namespace"] as? String == "android_app")
            #expect(target["package_name"] as? String == "com.example.app")
            #expect(
                target["sha256_cert_fingerprints"] as? [String] == [
                    Array(repeating: "AB", count: 32).joined(separator: ":")
                ])

            let related = try await app.send(.get, APIPaths.WellKnown.webAuthnRelatedOrigins)
            #expect(related.status == .ok)
            #expect(related.headers[.contentType]?.hasPrefix("application/json") == true)
            #expect(related.text == #"{"origins":["https://example.co.uk"]}"#)
        }
    }

    @Test func theAndroidAppOriginIsAccepted() async throws {
        try await withServer(.sqlite, settings: Self.wellKnownSettings) { server in
            let androidOrigin = "android:apk-key-hash:" + Base64URLText.of(Array(repeating: 0xab, count: 32))
            #expect(server.configuration.acceptedOrigins.contains(androidOrigin))
            // An app on the related origin signs up as well.
            var client = NativeClient(http: server.app())
            client.origin = "https://login.example.com"
            let signUp = try await client.signUp("alice", with: VirtualAuthenticator())
            #expect(signUp.status == .created, "\(signUp)")
        }
    }

    static let metricsToken = String(repeating: "m3tr1cs-", count: 5)

    @Test func metricsAreOffWithoutAToken() async throws {
        try await withServer(.sqlite) { server in
            let reply = try await server.app().send(.get, APIPaths.Operations.metrics)
            #expect(reply.status == .notFound)
            #expect(reply.errorCode == "metrics.disabled")
        }
    }

    @Test func theMetricsTokenComesFromAFileAndMustBeLong() throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent(
            "latchkey-metrics-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        let good = directory.appendingPathComponent("good").path
        let short = directory.appendingPathComponent("short").path
        try Data((Self.metricsToken + "\n").utf8).write(to: URL(fileURLWithPath: good))
        try Data("secret\n".utf8).write(to: URL(fileURLWithPath: short))
        var settings = ServerSettings.test
        settings.metricsTokenFile = good
        #expect(try ServerConfiguration(settings).metricsToken == Self.metricsToken)
        settings.metricsTokenFile = short
        #expect(throws: ConfigurationError.self) { try ServerConfiguration(settings) }
    }

    @Test func healthMetricsAndPage() async throws {
        try await withServer(.sqlite, configure: { $0.metricsToken = Self.metricsToken }) { server in
            let app = server.app()
            let health = try await app.send(.get, APIPaths.Operations.health)
            #expect(health.status == .ok)
            #expect(health.text == #"{"status":"ok"}"#)

            #expect(try await NativeClient(http: app).signUp("alice", with: VirtualAuthenticator()).status == .created)
            _ = try await app.send(.get, APIPaths.Apple.authorize)  // 404 apple.disabled

            let metrics = try await app.send(
                .get, APIPaths.Operations.metrics, headers: [.authorization: "Bearer \(Self.metricsToken)"])
            #expect(metrics.status == .ok)
            #expect(metrics.headers[.contentType] == "text/plain; version=0.0.4; charset=utf-8")
            #expect(metrics.headers[.cacheControl] == "no-store")
            let text = metrics.text
            #expect(
                text.contains(
                    #"latchkey_http_requests_total{route="/v1/passkeys/registration/verify",method="POST",status="201"} 1"#
                ), "\(text)")
            #expect(text.contains(#"status="404""#))
            #expect(text.contains(#"latchkey_ceremonies_total{kind="registration",outcome="success"} 1"#))
            #expect(text.contains("# TYPE latchkey_verification_duration_seconds histogram"))
            #expect(text.contains(#"latchkey_verification_duration_seconds_count{kind="registration"} 1"#))
            // The process's own usage, in the Prometheus names, for `latchkey loadtest`'s CPU per login.
            #expect(text.contains("# TYPE process_cpu_seconds_total counter"))
            let cpu = try #require(ProcessUsage.sample("process_cpu_seconds_total", in: text))
            #expect(cpu > 0)
            let peak = try #require(ProcessUsage.sample("process_resident_memory_peak_bytes", in: text))
            #expect(peak > 1_000_000)
            #expect(ProcessUsage.sample("process_resident_memory_bytes", in: text).map { $0 > 0 && $0 <= peak } == true)

            let anonymous = try await app.send(.get, APIPaths.Operations.metrics)
            #expect(anonymous.status == .unauthorized)
            #expect(anonymous.errorCode == "metrics.unauthorized")
            let wrong = try await app.send(
                .get, APIPaths.Operations.metrics, headers: [.authorization: "Bearer \(Self.metricsToken)x"])
            #expect(wrong.errorCode == "metrics.unauthorized")

            let page = try await app.send(.get, "/")
            #expect(page.status == .ok)
            #expect(page.headers[.contentType]?.hasPrefix("text/html") == true)
            #expect(page.text.contains("Latchkey"))
        }
    }

    @Test func unknownRoutesAndBadJSONAreJSONErrors() async throws {
        try await withServer(.sqlite) { server in
            let app = server.app()
            let missing = try await app.send(.get, "/v1/nothing-here")
            #expect(missing.status == .notFound)
            #expect(missing.errorCode == "request.notFound")

            let garbage = try await app.send(.post, APIPaths.Native.registrationOptions, text: "{not json")
            #expect(garbage.status == .badRequest)
            #expect(garbage.errorCode == "request.malformedJSON")

            let wrongType = try await app.send(.post, APIPaths.Native.registrationOptions, text: #"{"username": 5}"#)
            #expect(wrongType.errorCode == "request.invalidField")

            let empty = try await app.send(.post, APIPaths.Native.registrationOptions, text: #"{"username": "  "}"#)
            #expect(empty.errorCode == "user.invalidName")
            let control = try await app.send(
                .post, APIPaths.Native.registrationOptions, text: #"{"username": "a\u0007b"}"#)
            #expect(control.errorCode == "user.invalidName")
            let display = try await app.send(
                .post, APIPaths.Native.registrationOptions, text: #"{"username": "ok", "displayName": "x\u0000"}"#)
            #expect(display.errorCode == "user.invalidDisplayName")

            let form = try await app.send(
                .post, APIPaths.Native.authenticationVerify, text: #"{"ticket":"x","credential":{}}"#,
                headers: [.contentType: "text/plain"]
            )
            #expect(form.status == .unsupportedMediaType)
            #expect(form.errorCode == "request.unsupportedMediaType")
            let formConformance = try await app.send(
                .post, APIPaths.Conformance.assertionResult, text: "{}",
                headers: [.contentType: "application/x-www-form-urlencoded"])
            try expectFailure(formConformance, code: "request.unsupportedMediaType")

            let conformance = try await app.send(.post, APIPaths.Conformance.attestationOptions, text: "[]")
            try expectFailure(conformance, code: "request.invalidField")
            let noName = try await app.send(.post, APIPaths.Conformance.attestationOptions, text: "{}")
            try expectFailure(noName, code: "request.missingField")
        }
    }

    @Test func bodiesOverTheLimitAreRefused() async throws {
        var settings = ServerSettings.test
        settings.bodyLimit = 2048
        try await withServer(.sqlite, settings: settings) { server in
            let big = #"{"username":""# + String(repeating: "a", count: 4096) + #""}"#
            let reply = try await server.app().send(.post, APIPaths.Native.registrationOptions, text: big)
            #expect(reply.status == .contentTooLarge)
            #expect(reply.errorCode == "request.tooLarge")
            let conformance = try await server.app().send(.post, APIPaths.Conformance.attestationOptions, text: big)
            #expect(conformance.status == .contentTooLarge)
            #expect(conformance.serverResponse?.status == .failed)
        }
    }

    @Test("a limit above Hummingbird's 2 MiB default is the one that applies")
    func bodiesUnderALargeLimitReachTheRoute() async throws {
        var settings = ServerSettings.test
        settings.bodyLimit = 4 * 1024 * 1024
        try await withServer(.sqlite, settings: settings) { server in
            let body = #"{"username":"big","padding":""# + String(repeating: "a", count: 3 * 1024 * 1024) + #""}"#
            let reply = try await server.app().send(.post, APIPaths.Native.registrationOptions, text: body)
            #expect(reply.status == .ok, "a 3 MiB body under a 4 MiB limit is read, not refused: \(reply.status)")
        }
    }

    @Test func ceremonyEndpointsAreRateLimitedPerClient() async throws {
        var settings = ServerSettings.test
        settings.rateLimit = 3
        settings.trustedProxies = ["127.0.0.0/8", "::1"]
        try await withServer(.sqlite, settings: settings) { server in
            let app = server.app()
            let first: HTTPFields = [.init("X-Forwarded-For")!: "203.0.113.7"]
            for _ in 0..<3 {
                #expect(
                    try await app.send(.post, APIPaths.Native.authenticationOptions, text: "{}", headers: first).status
                        == .ok)
            }
            let limited = try await app.send(.post, APIPaths.Native.authenticationOptions, text: "{}", headers: first)
            #expect(limited.status == .tooManyRequests)
            #expect(limited.errorCode == "request.rateLimited")
            let retryAfter = try #require(limited.headers[.retryAfter].flatMap { Int($0) })
            #expect((1...20).contains(retryAfter))

            // Another client behind the same proxy has its own bucket (the right-most untrusted hop is the client;
            // what it claims to the left is ignored); other endpoints are not limited.
            let second: HTTPFields = [.init("X-Forwarded-For")!: "203.0.113.7, 198.51.100.1"]
            #expect(
                try await app.send(.post, APIPaths.Native.authenticationOptions, text: "{}", headers: second).status
                    == .ok)
            #expect(try await app.send(.get, APIPaths.Operations.health, headers: first).status == .ok)
            let conformance = try await app.send(
                .post, APIPaths.Conformance.assertionOptions, text: "{}", headers: first)
            #expect(conformance.status == .tooManyRequests)
            #expect(conformance.serverResponse?.errorCode == "request.rateLimited")
        }
    }

    @Test func forwardedForIsIgnoredFromUntrustedPeers() async throws {
        var settings = ServerSettings.test
        settings.rateLimit = 2
        try await withServer(.sqlite, settings: settings) { server in
            let app = server.app()
            for address in ["192.0.2.1", "192.0.2.2"] {
                #expect(
                    try await app.send(
                        .post, APIPaths.Native.authenticationOptions, text: "{}",
                        headers: [.init("X-Forwarded-For")!: address]
                    ).status == .ok)
            }
            let spoofed = try await app.send(
                .post, APIPaths.Native.authenticationOptions, text: "{}",
                headers: [.init("X-Forwarded-For")!: "192.0.2.3"])
            #expect(spoofed.status == .tooManyRequests)
        }
    }
}

enum Base64URLText {
    static func of(_ bytes: [UInt8]) -> String { Base64URL.encode(bytes) }
}

/// Rate limits by client group (issue 14, finding 8).
@Suite("Rate limit groups")
struct RateLimitGroupTests {
    @Test func ipv6ClientsShareABucketPerSlash64() async throws {
        var settings = ServerSettings.test
        settings.rateLimit = 2
        settings.trustedProxies = ["127.0.0.0/8", "::1/128"]
        try await withServer(.sqlite, settings: settings) { server in
            func options(from address: String) async throws -> Reply {
                try await server.app().send(
                    .post, APIPaths.Native.authenticationOptions, text: "{}", headers: [.forwardedForTests: address]
                )
            }
            #expect(try await options(from: "2001:db8:1:2::1").status == .ok)
            #expect(try await options(from: "2001:db8:1:2::abcd").status == .ok)
            let third = try await options(from: "2001:db8:1:2:ffff::1")
            #expect(third.status == .tooManyRequests, "the same /64: \(third)")
            #expect(try await options(from: "2001:db8:1:3::1").status == .ok, "the next /64 is another client")
            #expect(try await options(from: "192.0.2.1").status == .ok)
            #expect(try await options(from: "192.0.2.2").status == .ok, "IPv4 addresses are each their own client")
        }
    }
}
