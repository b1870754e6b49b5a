import Foundation
import LatchkeyAPI
import LatchkeyClient
import LatchkeyServer
import LatchkeyTestSupport
import Testing
import VirtualAuthenticator
import WebAuthn

/// `NativeClient`'s password calls against the real server over real HTTP, on each database.
@Suite("NativeClient passwords against the real server")
struct PasswordClientServerTests {
    static func cheap(_ configuration: inout ServerConfiguration) {
        configuration.passwordHashing = ScryptParameters(logN: 10, blockSize: 8, parallelization: 1)
    }

    @Test(arguments: Backend.available)
    func passwordsToPasskeys(_ backend: Backend) async throws {
        try await LiveServer.run(backend, server: Self.cheap) { server in
            let app = server.native()
            let signedUp = try await app.passwordRegister(
                PasswordRegisterRequest(
                    username: "alice", displayName: "Alice", password: "correct horse battery staple"))
            #expect(signedUp.user.name == "alice")
            #expect(await app.sessionToken == signedUp.session.token)
            #expect(signedUp.passkeyUpgrade != nil)
            #expect(try await app.me().signInMethods == SignInMethods(passkeys: 0, password: true, apple: false))

            // Refusals arrive as the server's codes.
            let short = await clientError {
                try await server.native().passwordRegister(PasswordRegisterRequest(username: "bob", password: "short"))
            }
            #expect(short?.code == "password.tooShort")
            let wrong = await clientError {
                try await server.native().passwordSignIn(
                    PasswordSignInRequest(username: "alice", password: "nope nope nope"))
            }
            #expect(wrong?.code == "password.invalid")
            let unknown = await clientError {
                try await server.native().passwordSignIn(
                    PasswordSignInRequest(username: "nobody", password: "nope nope nope"))
            }
            #expect(unknown?.code == "password.invalid")
            #expect(await clientError { try await app.removePassword() }?.code == "password.lastWayIn")

            // Sign in again, finish the upgrade with a passkey, change and then remove the password.
            let phone = LiveServer.passkeyProvider()
            let again = server.native()
            let session = try await again.passwordSignIn(
                PasswordSignInRequest(username: "alice", password: "correct horse battery staple"))
            let upgrade = try #require(session.passkeyUpgrade)
            let passkey = try await again.completePasskeyUpgrade(upgrade, with: phone)
            #expect(try await again.passkeys().map(\.id) == [passkey.id])
            #expect(
                await clientError {
                    try await again.setPassword(SetPasswordRequest(newPassword: "a brand new passphrase"))
                }?.code == "password.currentRequired")
            try await again.setPassword(
                SetPasswordRequest(
                    currentPassword: "correct horse battery staple", newPassword: "a brand new passphrase"))
            #expect(
                try await server.native().passwordSignIn(
                    PasswordSignInRequest(username: "alice", password: "a brand new passphrase")
                ).passkeyUpgrade == nil)
            try await again.removePassword()
            #expect(try await again.me().signInMethods == SignInMethods(passkeys: 1, password: false, apple: false))
            #expect(try await server.native().signIn(username: "alice", with: phone).session.user.name == "alice")
        }
    }

    @Test(arguments: Backend.available)
    func disabled(_ backend: Backend) async throws {
        try await LiveServer.run(backend, configure: { $0.passwordSignIn = false }, server: Self.cheap) { server in
            let refused = await clientError {
                try await server.native().passwordRegister(
                    PasswordRegisterRequest(username: "alice", password: "correct horse battery staple"))
            }
            #expect(refused?.code == "password.disabled")
        }
    }
}
