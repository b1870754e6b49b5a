import AppleSignIn
import AppleStandIn
import Crypto
import Foundation
import HTTPTypes
import LatchkeyAPI
import LatchkeyServer
import LatchkeyStore
import Testing

/// A Latchkey server with Sign in with Apple on, pointed at a running ``AppleStandIn`` on loopback.
struct AppleServer: Sendable {
    static let teamID = "TEAM123456"
    static let keyID = "KEY1234567"
    static let bundleID = AppleBundleID("dev.latchkey.app")
    static let servicesID = AppleServicesID("dev.latchkey.web")
    static let redirectURI = "http://localhost:8080/v1/apple/callback"

    let server: ServerHarness
    let apple: RunningStandIn
    let secretsKey: [UInt8]

    var standIn: AppleStandIn { apple.standIn }

    /// A valid identity token for the app, after `edit` changes its claims.
    func identityToken(
        subject: String, rawNonce: String?, audience: String = AppleServer.bundleID.rawValue,
        email: String? = "ada@privaterelay.appleid.com", signing: StandInSigning = .apple,
        edit: (inout StandInClaims) -> Void = { _ in }
    ) async throws -> String {
        var claims = standIn.identityClaims(
            subject: subject, audience: audience, rawNonce: rawNonce, email: email, isPrivateEmail: true)
        edit(&claims)
        return try await standIn.mint(claims, signing: signing)
    }

    /// `POST /v1/apple/nonce`: a nonce the server issued for one sign-in.
    func issueNonce(_ http: HTTPSession? = nil) async throws -> String {
        let reply = try await (http ?? server.app()).send(.post, APIPaths.Apple.nonce)
        #expect(reply.status == .ok, "\(reply)")
        return try reply.decode(AppleNonceResponse.self).nonce
    }

    /// `POST /v1/apple/signin` as an app does after `ASAuthorizationAppleIDProvider`: a fresh server nonce and code for `subject`.
    @discardableResult
    func signIn(
        _ http: HTTPSession, subject: String, givenName: String? = nil, familyName: String? = nil,
        withCode: Bool = true
    ) async throws -> Reply {
        let rawNonce = try await issueNonce(http)
        var body: [String: Any] = [
            "identityToken": try await identityToken(subject: subject, rawNonce: rawNonce), "rawNonce": rawNonce,
        ]
        if withCode { body["authorizationCode"] = await standIn.issueCode(for: .app(Self.bundleID), subject: subject) }
        if givenName != nil || familyName != nil {
            body["fullName"] = ["givenName": givenName, "familyName": familyName].compactMapValues { $0 }
        }
        return try await http.send(.post, APIPaths.Apple.signIn, body: JSONObject.buffer(body))
    }

    /// The refresh token sealed in `link`, opened with the server's secrets key.
    func openRefreshToken(_ link: StoredAppleLink) throws -> String {
        let sealed = try #require(link.sealedRefreshToken)
        let box = try SecretBox(key: secretsKey)
        return String(
            decoding: try box.open(Array(sealed), context: Array("apple-refresh-token:\(link.subject)".utf8)),
            as: UTF8.self)
    }
}

/// A stand-in for Apple that a test can stop (to see the server cope with Apple being unreachable).
final class RunningStandIn: Sendable {
    let standIn: AppleStandIn
    private let stopSignal: AsyncStream<Void>.Continuation
    private let task: Task<Void, any Error>

    private init(standIn: AppleStandIn, stopSignal: AsyncStream<Void>.Continuation, task: Task<Void, any Error>) {
        self.standIn = standIn
        self.stopSignal = stopSignal
        self.task = task
    }

    static func start(_ configuration: AppleStandIn.Configuration) async throws -> RunningStandIn {
        let (started, startedContinuation) = AsyncStream<AppleStandIn>.makeStream()
        let (stop, stopContinuation) = AsyncStream<Void>.makeStream()
        let task = Task {
            defer { startedContinuation.finish() }
            try await AppleStandIn.withRunning(configuration) { standIn in
                startedContinuation.yield(standIn)
                for await _ in stop {}
            }
        }
        var iterator = started.makeAsyncIterator()
        guard let standIn = await iterator.next() else {
            try await task.value
            throw CancellationError()
        }
        return RunningStandIn(standIn: standIn, stopSignal: stopContinuation, task: task)
    }

    /// Stops the stand-in and waits until its port is closed.
    func stop() async {
        stopSignal.finish()
        _ = try? await task.value
    }
}

/// Runs `body` against a server with Sign in with Apple on (app `dev.latchkey.app`, web `dev.latchkey.web`) over a
/// fresh database of `backend`, with a stand-in for Apple.
func withAppleServer(
    _ backend: Backend, configure: (inout ServerSettings) -> Void = { _ in },
    _ body: @escaping @Sendable (AppleServer) async throws -> Void
) async throws {
    let teamKey = P256.Signing.PrivateKey()
    let directory = FileManager.default.temporaryDirectory.appendingPathComponent("latchkey-apple-\(UUID().uuidString)")
    try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
    defer { try? FileManager.default.removeItem(at: directory) }
    let keyPath = directory.appendingPathComponent("AuthKey.p8").path
    try Data(teamKey.pemRepresentation.utf8).write(to: URL(fileURLWithPath: keyPath))
    let secretsKey = (0..<32).map { _ in UInt8.random(in: .min ... .max) }

    let apple = try await RunningStandIn.start(
        .init(teamID: AppleServer.teamID, keyID: AppleServer.keyID, teamKey: teamKey.publicKey))
    do {
        var settings = ServerSettings.appleTest(keyPath: keyPath, secretsKey: secretsKey)
        settings.appleBaseURL = apple.standIn.baseURL
        configure(&settings)
        try await withServer(backend, settings: settings) { server in
            try await body(AppleServer(server: server, apple: apple, secretsKey: secretsKey))
        }
        await apple.stop()
    } catch {
        await apple.stop()
        throw error
    }
}

extension ServerSettings {
    /// Test settings with Sign in with Apple on.
    static func appleTest(keyPath: String, secretsKey: [UInt8]) -> ServerSettings {
        var settings = ServerSettings.test
        settings.appleTeamID = AppleServer.teamID
        settings.appleKeyID = AppleServer.keyID
        settings.applePrivateKey = keyPath
        settings.appleClientIDs = [AppleServer.bundleID.rawValue]
        settings.appleServicesID = AppleServer.servicesID.rawValue
        settings.appleRedirectURI = AppleServer.redirectURI
        settings.secretsKey = Data(secretsKey).base64EncodedString()
        return settings
    }
}
