import Foundation
import HTTPTypes
import LatchkeyAPI
import LatchkeyStore
import Testing
import VirtualAuthenticator
import WebAuthn

/// The signed-in user's session, passkeys and account over the native API, on each database.
@Suite("Sessions, passkeys and accounts")
struct AccountManagementTests {
    /// Signs up `name` with `authenticator` and returns the app client carrying the Bearer token.
    @Test(arguments: Backend.available)
    func meAndLogoutWithABearerToken(_ backend: Backend) async throws {
        try await withServer(backend) { server in
            let app = try await server.signedUpApp("alice", with: VirtualAuthenticator())
            let me = try await app.http.send(.get, APIPaths.Native.me)
            #expect(me.status == .ok)
            #expect(try me.decode(UserProfile.self).name == "alice")

            #expect(try await app.http.send(.post, APIPaths.Native.logout).status == .noContent)
            let after = try await app.http.send(.get, APIPaths.Native.me)
            #expect(after.status == .unauthorized)
            #expect(after.errorCode == "session.invalid")

            let anonymous = try await server.app().send(.get, APIPaths.Native.me)
            #expect(anonymous.status == .unauthorized)
            #expect(anonymous.errorCode == "session.required")
        }
    }

    @Test(arguments: Backend.available)
    func theWebSessionIsAnHttpOnlyCookieAndForeignOriginsCannotWrite(_ backend: Backend) async throws {
        try await withServer(backend) { server in
            let browser = server.browser()
            let web = NativeClient(http: browser)
            let options: RegistrationOptionsResponse =
                try await browser
                .send(.post, APIPaths.Native.registrationOptions, json: RegistrationOptionsRequest(username: "web"))
                .decode()
            let credential = try await VirtualAuthenticator().register(
                options: options.options, origin: ServerHarness.origin)
            let verify = try await browser.send(
                .post, APIPaths.Native.registrationVerify,
                json: RegistrationVerifyRequest(ticket: options.ticket, credential: credential))
            let setCookie = try #require(verify.headers[values: .setCookie].first { $0.hasPrefix("latchkey_session=") })
            #expect(setCookie.contains("HttpOnly"))
            #expect(setCookie.contains("SameSite=Lax"))
            #expect(!setCookie.contains("Secure"), "http://localhost is not https")
            _ = web

            #expect(try await browser.send(.get, APIPaths.Native.me).status == .ok)
            await browser.setOrigin("https://evil.example")
            let forged = try await browser.send(.post, APIPaths.Native.logout)
            #expect(forged.status == .forbidden)
            #expect(forged.errorCode == "request.originNotAllowed")
            await browser.setOrigin(ServerHarness.origin)
            #expect(try await browser.send(.post, APIPaths.Native.logout).status == .noContent)
            #expect(await browser.cookies["latchkey_session"] == nil, "logout clears the cookie")
        }
    }

    @Test(arguments: Backend.available)
    func listRenameAddAndDeletePasskeys(_ backend: Backend) async throws {
        try await withServer(backend) { server in
            let phone = VirtualAuthenticator(configuration: .passkeyProvider)
            let key = VirtualAuthenticator(configuration: .securityKey)
            let app = try await server.signedUpApp("alice", with: phone)

            let added = try await app.addPasskey(name: "Blue key", with: key)
            #expect(added.status == .created, "\(added)")
            let summary: PasskeySummary = try added.decode()
            #expect(summary.name == "Blue key")
            #expect(summary.deviceType == "single-device")
            #expect(summary.transports == ["usb", "nfc"])
            #expect(summary.aaguid == VirtualAuthenticator.defaultAAGUID.description)

            // The new key signs in to the same account.
            let keySignIn = try await NativeClient(http: server.app()).signIn("alice", with: key)
            #expect(keySignIn.status == .ok)

            let list: PasskeyList = try await app.http.send(.get, APIPaths.Native.passkeys).decode()
            #expect(list.passkeys.count == 2)
            let synced = try #require(list.passkeys.first)
            #expect(synced.backedUp && synced.backupEligible && synced.deviceType == "multi-device")
            #expect(synced.aaguid == "00000000-0000-0000-0000-000000000000")
            #expect(list.passkeys[1].lastUsedAt != nil)

            let renamed = try await app.http.send(
                .patch, APIPaths.Native.passkey(id: synced.id), json: RenamePasskeyRequest(name: "  iPhone "))
            #expect(renamed.status == .ok)
            #expect(try renamed.decode(PasskeySummary.self).name == "iPhone")
            let tooLong = try await app.http.send(
                .patch, APIPaths.Native.passkey(id: synced.id),
                json: RenamePasskeyRequest(name: String(repeating: "x", count: 65)))
            #expect(tooLong.errorCode == "passkey.invalidName")
            // 64 characters are code points, as the document's maxLength counts them: 64 four-byte emoji are a name;
            // a C1 control (U+0085) and a bidi override are not; a joined emoji sequence (ZWJ) is.
            let wide = String(repeating: "\u{1F511}", count: 64)
            let named = try await app.http.send(
                .patch, APIPaths.Native.passkey(id: synced.id), json: RenamePasskeyRequest(name: wide))
            #expect(try named.decode(PasskeySummary.self).name == wide)
            for refused in ["a\u{85}b", "a\u{202E}b", String(repeating: "\u{1F511}", count: 65)] {
                let reply = try await app.http.send(
                    .patch, APIPaths.Native.passkey(id: synced.id), json: RenamePasskeyRequest(name: refused))
                #expect(reply.errorCode == "passkey.invalidName", "\(refused.unicodeScalars.map(\.value))")
            }
            let joined = "\u{1F469}\u{200D}\u{1F4BB}"
            let joinedReply = try await app.http.send(
                .patch, APIPaths.Native.passkey(id: synced.id), json: RenamePasskeyRequest(name: joined))
            #expect(try joinedReply.decode(PasskeySummary.self).name == joined)

            let removed = try await app.http.send(.delete, APIPaths.Native.passkey(id: summary.id))
            #expect(removed.status == .ok)
            #expect(try removed.decode(PasskeyRemoval.self).signals?.allAcceptedCredentialIds == [synced.id])
            let last = try await app.http.send(.delete, APIPaths.Native.passkey(id: synced.id))
            #expect(last.status == .conflict)
            #expect(last.errorCode == "passkey.lastCredential")
            let gone = try await app.http.send(.delete, APIPaths.Native.passkey(id: summary.id))
            #expect(gone.status == .notFound)
            #expect(gone.errorCode == "passkey.notFound")

            // The deleted key no longer signs in.
            let deletedSignIn = try await NativeClient(http: server.app()).signIn(nil, with: key, choice: .mostRecent)
            #expect(deletedSignIn.status == .notFound)
            // The body names the credential and RP, for PublicKeyCredential.signalUnknownCredential.
            let detail = try deletedSignIn.decode(APIErrorBody.self).error
            #expect(detail.code == "credential.notFound")
            #expect(detail.rpId == "localhost")
            #expect(detail.credentialId.flatMap(Base64URL.decode).map { !$0.isEmpty } == true)
        }
    }

    @Test(arguments: Backend.available)
    func anotherUsersPasskeyIsNotFound(_ backend: Backend) async throws {
        try await withServer(backend) { server in
            let alice = try await server.signedUpApp("alice", with: VirtualAuthenticator())
            let bob = try await server.signedUpApp("bob", with: VirtualAuthenticator())
            let bobs: PasskeyList = try await bob.http.send(.get, APIPaths.Native.passkeys).decode()
            let id = try #require(bobs.passkeys.first?.id)
            #expect(try await alice.http.send(.delete, APIPaths.Native.passkey(id: id)).errorCode == "passkey.notFound")
            #expect(
                try await alice.http.send(
                    .patch, APIPaths.Native.passkey(id: id), json: RenamePasskeyRequest(name: "mine")
                ).errorCode == "passkey.notFound")
            #expect(
                try await alice.http.send(.delete, APIPaths.Native.passkey(id: "!!")).errorCode == "passkey.notFound")
        }
    }

    @Test(arguments: Backend.available)
    func deletingTheAccountRemovesEverything(_ backend: Backend) async throws {
        try await withServer(backend) { server in
            let authenticator = VirtualAuthenticator()
            let app = try await server.signedUpApp("alice", with: authenticator)
            let user = try #require(try await server.store.user(named: "alice"))

            #expect(try await app.http.send(.delete, APIPaths.Native.account).status == .noContent)
            #expect(try await server.store.user(id: user.id) == nil)
            #expect(try await server.store.credentialCount(ofUser: user.id) == 0)
            #expect(try await app.http.send(.get, APIPaths.Native.me).status == .unauthorized)
            let signIn = try await NativeClient(http: server.app()).signIn(nil, with: authenticator)
            #expect(signIn.errorCode == "credential.notFound")
            // The name is free again.
            #expect(
                try await NativeClient(http: server.app()).signUp("alice", with: VirtualAuthenticator()).status
                    == .created)
        }
    }
}
