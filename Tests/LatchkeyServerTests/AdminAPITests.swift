import Foundation
import HTTPTypes
import Hummingbird
import HummingbirdTesting
import LatchkeyAPI
import LatchkeyStore
import NIOCore
import Testing
import VirtualAuthenticator
import WebAuthn

@testable import LatchkeyServer

/// The admin API through its router (the listener's own tests start `latchkey serve`): keys compared as configured,
/// finding users four ways, what an operator sees and changes, each on the real store of a live server.
@Suite("Admin API")
struct AdminAPITests {
    static let key = "ops:" + String(repeating: "k", count: 40)
    static let bearer = "Bearer " + String(repeating: "k", count: 40)

    static func settings() -> ServerSettings {
        var settings = ServerSettings.test
        settings.adminPort = 0
        settings.adminKeys = [key, "backup:" + String(repeating: "b", count: 32)]
        return settings
    }

    /// Runs `body` with a live server (for the users it signs up) and a client of its admin router.
    static func withAdmin(
        _ backend: Backend = .sqlite,
        _ body: @escaping @Sendable (ServerHarness, any TestClientProtocol) async throws -> Void
    ) async throws {
        try await withServer(backend, settings: settings()) { server in
            let services = ServerApplication.Services(
                configuration: server.configuration, store: server.store, metrics: ServerMetrics(), logger: quietLogger)
            let router = ServerApplication.makeAdminRouter(
                configuration: server.configuration, services: services, metrics: ServerMetrics(), logger: quietLogger)
            try await Application(router: router).test(.router) { client in try await body(server, client) }
        }
    }

    static func call(
        _ client: any TestClientProtocol, _ method: HTTPRequest.Method, _ path: String, authorization: String? = bearer,
        body: String? = nil
    ) async throws -> (status: HTTPResponse.Status, text: String) {
        var headers: HTTPFields = [:]
        if let authorization { headers[.authorization] = authorization }
        if body != nil { headers[.contentType] = "application/json" }
        let response = try await client.execute(
            uri: path, method: method, headers: headers, body: body.map { ByteBuffer(string: $0) })
        return (response.status, String(buffer: response.body))
    }

    static func decode<T: Decodable>(_ type: T.Type, _ text: String) throws -> T {
        try APIJSON.makeDecoder().decode(T.self, from: Data(text.utf8))
    }

    @Test("without a key, or with a wrong one, every route answers 401 admin.unauthorized")
    func keys() async throws {
        try await Self.withAdmin { _, client in
            for authorization in [nil, "Bearer wrong", "Bearer " + String(repeating: "k", count: 39), "Basic x"] {
                let answer = try await Self.call(
                    client, .get, AdminPaths.users + "?name=x", authorization: authorization)
                #expect(answer.status == .unauthorized && answer.text.contains("admin.unauthorized"), "\(answer)")
            }
            let second = try await Self.call(
                client, .get, AdminPaths.users + "?name=x", authorization: "Bearer " + String(repeating: "b", count: 32)
            )
            #expect(second.status == .ok, "the second key works too")
        }
    }

    @Test(
        "find a user by name, verified email, credential ID; show them; end their sessions; issue a recovery link; delete",
        arguments: Backend.available)
    func operatorsWork(_ backend: Backend) async throws {
        try await Self.withAdmin(backend) { server, client in
            let authenticator = VirtualAuthenticator()
            let signedUp: SessionResponse = try await NativeClient(http: server.app()).signUp(
                "alice", with: authenticator
            )
            .decode()
            let user = try #require(try await server.store.user(named: "alice"))
            let credential = try #require(try await server.store.credentials(ofUser: user.id).first)
            _ = try await server.store.addEmail(
                "alice@example.com", toUser: user.id, codeHash: Data(repeating: 1, count: 32),
                codeExpiresAt: Date().addingTimeInterval(600), now: Date())
            _ = try await server.store.verifyEmail(
                "alice@example.com", ofUser: user.id, codeHash: Data(repeating: 1, count: 32), now: Date())

            for query in [
                "name=ALICE", "email=Alice@example.com", "credentialId=\(Base64URL.encode(Array(credential.id)))",
            ] {
                let found = try await Self.call(client, .get, AdminPaths.users + "?" + query)
                #expect(try Self.decode(AdminUserList.self, found.text).users.map(\.name) == ["alice"], "\(query)")
            }
            #expect(
                try Self.decode(
                    AdminUserList.self, try await Self.call(client, .get, AdminPaths.users + "?name=nobody").text
                )
                .users.isEmpty)
            let ambiguous = try await Self.call(client, .get, AdminPaths.users + "?name=a&email=b@example.com")
            #expect(ambiguous.status == .badRequest && ambiguous.text.contains("admin.invalidQuery"))

            let id = user.id.uuidString.lowercased()
            let detail = try Self.decode(
                AdminUserDetail.self, try await Self.call(client, .get, AdminPaths.user(id: id)).text)
            #expect(detail.passkeys.count == 1 && detail.sessions.count == 1 && detail.emails.first?.verified == true)
            #expect(detail.signInMethods.passkeys == 1)
            #expect(try await Self.call(client, .get, AdminPaths.user(id: UUID().uuidString)).status == .notFound)

            let last = try await Self.call(
                client, .delete, AdminPaths.passkey(user: id, id: Base64URL.encode(Array(credential.id))))
            #expect(last.status == .conflict && last.text.contains("passkey.lastCredential"))

            let ended = try await Self.call(client, .delete, AdminPaths.sessions(user: id))
            #expect(try Self.decode(AdminEndedSessions.self, ended.text).ended == 1)
            let me = try await server.app().send(
                .get, APIPaths.Native.me, headers: [.authorization: "Bearer \(signedUp.session.token)"])
            #expect(me.status == .unauthorized, "the user's session ended")

            let link = try await Self.call(
                client, .post, AdminPaths.recoveryLink(user: id), body: #"{"lifetime":3600}"#)
            #expect(link.status == .created, "\(link)")
            let issued = try Self.decode(AdminRecoveryLink.self, link.text)
            #expect(issued.url.hasPrefix(ServerHarness.origin + "/#recover="))
            let recovered = try await server.app().send(
                .post, APIPaths.Native.recoveryOptions, json: RecoveryOptionsRequest(token: issued.token))
            #expect(recovered.status == .ok, "the link opens a recovery")

            let forced = try await Self.call(
                client, .delete,
                AdminPaths.passkey(user: id, id: Base64URL.encode(Array(credential.id))) + "?force=true")
            #expect(forced.status == .noContent)
            #expect(try await Self.call(client, .delete, AdminPaths.user(id: id)).status == .noContent)
            #expect(try await server.store.user(id: user.id) == nil)
            let metrics = try await Self.call(client, .get, AdminPaths.metrics)
            #expect(metrics.status == .ok)
            #expect(metrics.text.contains("process_cpu_seconds_total"), "the same exposition as /metrics")
        }
    }

    @Test("docs/admin-openapi.json names exactly the admin router's operations")
    func documentAndRouterAgree() async throws {
        try await withServer(.sqlite, settings: Self.settings()) { server in
            let services = ServerApplication.Services(
                configuration: server.configuration, store: server.store, metrics: ServerMetrics(), logger: quietLogger)
            let router = ServerApplication.makeAdminRouter(
                configuration: server.configuration, services: services, metrics: ServerMetrics(), logger: quietLogger)
            let routed = Set(
                router.routes.map {
                    "\($0.method.rawValue) " + $0.path.description.replacing(/:([a-z]+)/) { "{\($0.output.1)}" }
                })
            let url = OpenAPIDocumentTests.repository.appendingPathComponent("docs/admin-openapi.json")
            let document = try JSONSerialization.jsonObject(with: Data(contentsOf: url)) as? [String: Any]
            let paths = try #require(document?["paths"] as? [String: [String: Any]])
            let documented = Set(
                paths.flatMap { path, item in
                    item.keys.filter(OpenAPIDocumentTests.methods.contains).map { "\($0.uppercased()) \(path)" }
                })
            #expect(routed == documented, "routed \(routed.sorted()), documented \(documented.sorted())")
        }
    }

    @Test("find by Apple ID: the account linked to the identity token's subject")
    func findByAppleID() async throws {
        try await Self.withAdmin { server, client in
            let user = StoredUser(
                userHandle: Data((0..<16).map { _ in UInt8.random(in: 0...255) }), name: "gwen", displayName: "Gwen")
            let link = StoredAppleLink(subject: "001234.abcdef.0042", userID: user.id, clientID: "com.example.app")
            try await server.store.commitAppleLink(link, creating: user, session: nil)
            let found = try await Self.call(client, .get, AdminPaths.users + "?appleId=001234.abcdef.0042")
            #expect(try Self.decode(AdminUserList.self, found.text).users.map(\.name) == ["gwen"], "\(found)")
            let detail = try Self.decode(
                AdminUserDetail.self, try await Self.call(client, .get, AdminPaths.user(id: user.id.uuidString)).text)
            #expect(detail.signInMethods.apple && detail.passkeys.isEmpty)
            let unknown = try await Self.call(client, .get, AdminPaths.users + "?appleId=000000.unknown.0000")
            #expect(try Self.decode(AdminUserList.self, unknown.text).users.isEmpty)
        }
    }

    @Test("keys and port: a key shorter than 32 characters, or keys without a port, stop the start")
    func configuration() {
        var settings = ServerSettings()
        settings.adminPort = 9090
        settings.adminKeys = ["ops:short"]
        #expect(throws: ConfigurationError.self) { try ServerConfiguration(settings) }
        settings.adminKeys = nil
        #expect(throws: ConfigurationError.self) { try ServerConfiguration(settings) }
        var lone = ServerSettings()
        lone.adminKeys = [Self.key]
        #expect(throws: ConfigurationError.self) { try ServerConfiguration(lone) }
    }
}
