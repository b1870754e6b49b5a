import AppleSignIn
import AppleStandIn
import Crypto
import Foundation
import LatchkeyAPI
import LatchkeyClient
import LatchkeyTestSupport
import Testing

/// Sign in with Apple from the app's side, against the real server over real HTTP, with a stand-in for Apple that
/// signs real identity tokens: the credential the AuthenticationServices adapter copies out, turned into the
/// `/v1/apple/signin` body by ``SignInWithAppleRequest/signInRequest(for:)`` and sent by ``NativeClient/signInWithApple(_:)``,
/// each sign-in starting from a nonce the server issued (``NativeClient/appleNonce()``).
@Suite("Sign in with Apple: NativeClient against the real server")
struct AppleClientServerTests {
    static let bundleID = "dev.latchkey.app"

    @Test(arguments: Backend.available)
    func firstAndReturningSignIn(_ backend: Backend) async throws {
        let teamKey = P256.Signing.PrivateKey()
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent(
            "latchkey-apple-client-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        let keyPath = directory.appendingPathComponent("AuthKey.p8").path
        try Data(teamKey.pemRepresentation.utf8).write(to: URL(fileURLWithPath: keyPath))

        try await AppleStandIn.withRunning(.init(teamID: "TEAM123456", keyID: "KEY1234567", teamKey: teamKey.publicKey))
        { apple in
            try await LiveServer.run(
                backend,
                configure: { settings in
                    settings.appleTeamID = "TEAM123456"
                    settings.appleKeyID = "KEY1234567"
                    settings.applePrivateKey = keyPath
                    settings.appleClientIDs = [Self.bundleID]
                    settings.secretsKey = Data((0..<32).map { UInt8($0 * 7 + 1) }).base64EncodedString()
                    settings.appleBaseURL = apple.baseURL
                }
            ) { server in
                /// What `ASAuthorizationAppleIDCredential` carries after Apple's sheet for `request`.
                func credential(for request: SignInWithAppleRequest, subject: String, firstTime: Bool) async throws
                    -> AppleIDCredential
                {
                    let claims = apple.identityClaims(
                        subject: subject, audience: Self.bundleID, rawNonce: request.nonce.raw)
                    return AppleIDCredential(
                        user: subject, state: request.state, identityToken: try await apple.mint(claims),
                        authorizationCode: firstTime
                            ? await apple.issueCode(for: .app(AppleBundleID(Self.bundleID)), subject: subject) : nil,
                        email: firstTime ? "ada@privaterelay.appleid.com" : nil, givenName: firstTime ? "Ada" : nil,
                        familyName: firstTime ? "Lovelace" : nil, authorizedScopes: [.fullName, .email]
                    )
                }

                let app = server.native()
                let issued = try await app.appleNonce()
                #expect(issued.expiresAt > Date())
                let first = SignInWithAppleRequest(nonce: SignInWithAppleNonce(raw: issued.nonce))
                let created = try await app.signInWithApple(
                    first.signInRequest(for: credential(for: first, subject: "000111.apple", firstTime: true))
                )
                #expect(created.user.displayName == "Ada Lovelace")
                #expect(await app.sessionToken == created.session.token)
                var me = try await app.me()
                #expect(me.signInMethods == SignInMethods(passkeys: 0, password: false, apple: true))
                me.signInMethods = nil
                #expect(me == created.user)

                let returning = server.native()
                let again = SignInWithAppleRequest(
                    nonce: SignInWithAppleNonce(raw: try await returning.appleNonce().nonce))
                let returningBody = try again.signInRequest(
                    for: await credential(for: again, subject: "000111.apple", firstTime: false))
                let signedIn = try await returning.signInWithApple(returningBody)
                #expect(signedIn.user == created.user, "the same Apple ID signs in to the same account")

                // The same credential sent again (a replay) does not sign in a second time.
                let replay = await #expect(throws: LatchkeyClientError.self) {
                    try await server.native().signInWithApple(returningBody)
                }
                #expect(replay?.code == "apple.tokenReplayed")

                // A nonce the app made up itself is not one the server issued.
                let own = SignInWithAppleRequest()
                let unissued = await #expect(throws: LatchkeyClientError.self) {
                    try await server.native().signInWithApple(
                        own.signInRequest(for: await credential(for: own, subject: "000111.apple", firstTime: false))
                    )
                }
                #expect(unissued?.code == "apple.nonceInvalid")

                // The raw nonce of another request does not match the token's nonce: the server refuses it.
                let stolen = try await credential(
                    for: SignInWithAppleRequest(), subject: "000111.apple", firstTime: false)
                let error = await #expect(throws: LatchkeyClientError.self) {
                    try await server.native().signInWithApple(
                        stolen.signInRequest(rawNonce: SignInWithAppleNonce().raw))
                }
                #expect(error?.code.hasPrefix("apple.") == true)
            }
        }
    }
}
