import Foundation
import HTTPTypes
import HummingbirdTesting
import LatchkeyAPI
import NIOCore
import Testing
import VirtualAuthenticator

/// Stateless instances over one database, and ceremonies finished concurrently.
@Suite("Instances and concurrency")
struct MultiInstanceTests {
    @Test("A ceremony begun on one instance finishes on another", arguments: Backend.available)
    func twoInstancesShareCeremoniesAndSessions(_ backend: Backend) async throws {
        try await TestDatabase.with(backend) { database in
            try await withServer(on: database) { serverA in
                try await withServer(on: database) { serverB in
                    #expect(serverA.client.port != serverB.client.port)
                    let authenticator = VirtualAuthenticator(configuration: .passkeyProvider)
                    let onA = serverA.app()
                    let onB = serverB.app()

                    // Sign-up: options from A, verify on B.
                    let registration: RegistrationOptionsResponse =
                        try await onA
                        .send(
                            .post, APIPaths.Native.registrationOptions,
                            json: RegistrationOptionsRequest(username: "alice")
                        ).decode()
                    let created = try await authenticator.register(
                        options: registration.options, origin: ServerHarness.origin)
                    let signUp = try await onB.send(
                        .post, APIPaths.Native.registrationVerify,
                        json: RegistrationVerifyRequest(ticket: registration.ticket, credential: created))
                    #expect(signUp.status == .created, "\(signUp)")

                    // Sign-in: options from B, verify on A; the session works on both.
                    let authentication: AuthenticationOptionsResponse = try await onB.send(
                        .post, APIPaths.Native.authenticationOptions, text: "{}"
                    ).decode()
                    let assertion = try await authenticator.authenticate(
                        options: authentication.options, origin: ServerHarness.origin)
                    let signIn = try await onA.send(
                        .post, APIPaths.Native.authenticationVerify,
                        json: AuthenticationVerifyRequest(ticket: authentication.ticket, credential: assertion))
                    #expect(signIn.status == .ok, "\(signIn)")
                    let session: SessionResponse = try signIn.decode()
                    await onB.setBearer(session.session.token)
                    #expect(try await onB.send(.get, APIPaths.Native.me).decode(UserProfile.self).name == "alice")

                    // The conformance profile's cookie carries over too.
                    let browserA = serverA.browser()
                    let options: ServerRequestOptionsResponse = try await browserA.send(
                        .post, APIPaths.Conformance.assertionOptions,
                        json: ServerRequestOptionsRequest(username: "alice")
                    ).decode()
                    let browserB = serverB.browser()
                    await browserB.setCookie("latchkey_ceremony", await browserA.cookies["latchkey_ceremony"])
                    let credential = try await authenticator.authenticate(
                        options: options.options, origin: ServerHarness.origin)
                    #expect(
                        try await browserB.send(.post, APIPaths.Conformance.assertionResult, json: credential)
                            .serverResponse == ServerResponse.ok)
                }
            }
        }
    }

    @Test("Two concurrent finishes of one ceremony: exactly one succeeds", arguments: Backend.available)
    func concurrentDoubleFinish(_ backend: Backend) async throws {
        try await withServer(backend) { server in
            let authenticator = VirtualAuthenticator()
            #expect(try await NativeClient(http: server.app()).signUp("alice", with: authenticator).status == .created)
            let options: AuthenticationOptionsResponse = try await server.app()
                .send(
                    .post, APIPaths.Native.authenticationOptions, json: AuthenticationOptionsRequest(username: "alice")
                ).decode()
            let assertion = try await authenticator.authenticate(options: options.options, origin: ServerHarness.origin)
            let body = try APIJSONBody.of(AuthenticationVerifyRequest(ticket: options.ticket, credential: assertion))
            let statuses = try await Self.race(
                4, .post, APIPaths.Native.authenticationVerify, body: body, port: try #require(server.client.port))
            #expect(statuses.filter { $0 == 200 }.count == 1, "\(statuses)")
            #expect(statuses.filter { $0 == 404 }.count == 3, "\(statuses)")
            let user = try #require(try await server.store.user(named: "alice"))
            #expect(try await server.store.credentials(ofUser: user.id).first?.signCount == 1)
        }
    }

    @Test(
        "Two concurrent finishes of one sign-up: exactly one creates the account, the others 404",
        arguments: Backend.available)
    func concurrentDoubleSignUp(_ backend: Backend) async throws {
        try await withServer(backend) { server in
            let authenticator = VirtualAuthenticator()
            let options: RegistrationOptionsResponse = try await server.app()
                .send(.post, APIPaths.Native.registrationOptions, json: RegistrationOptionsRequest(username: "alice"))
                .decode()
            let created = try await authenticator.register(options: options.options, origin: ServerHarness.origin)
            let body = try APIJSONBody.of(RegistrationVerifyRequest(ticket: options.ticket, credential: created))
            let statuses = try await Self.race(
                4, .post, APIPaths.Native.registrationVerify, body: body, port: try #require(server.client.port))
            #expect(statuses.filter { $0 == 201 }.count == 1, "\(statuses)")
            #expect(statuses.filter { $0 == 404 || $0 == 409 }.count == 3, "\(statuses)")
            let user = try #require(try await server.store.user(named: "alice"))
            #expect(try await server.store.credentials(ofUser: user.id).count == 1)
        }
    }

    /// Sends the same request `count` times at once, each on its own connection so that they really race; the statuses.
    static func race(_ count: Int, _ method: HTTPRequest.Method, _ path: String, body: ByteBuffer, port: Int)
        async throws -> [Int]
    {
        try await withThrowingTaskGroup(of: Int.self) { group in
            for _ in 0..<count {
                group.addTask {
                    let client = TestClient(host: "localhost", port: port)
                    client.connect()
                    defer { Task { try? await client.shutdown() } }
                    let response = try await client.execute(
                        .init(
                            path, method: method, authority: "localhost", headers: [.contentType: "application/json"],
                            body: body)
                    )
                    return response.status.code
                }
            }
            return try await group.reduce(into: [Int]()) { $0.append($1) }
        }
    }
}

enum APIJSONBody {
    static func of(_ value: some Encodable) throws -> ByteBuffer {
        ByteBuffer(bytes: try APIJSON.makeEncoder().encode(value))
    }
}
