import AppleSignIn
import AppleStandIn
import Foundation
import LatchkeyAPI
import LatchkeyStore
import NIOCore
import Testing
import VirtualAuthenticator

/// `POST /v1/apple/notifications`: every event type, replays, and bad payloads, on each database.
@Suite("Sign in with Apple: server-to-server notifications")
struct AppleNotificationEndpointTests {
    private func notify(
        _ apple: AppleServer, type: String, subject: String, jti: String = UUID().uuidString,
        signing: StandInSigning = .apple
    ) async throws -> Reply {
        let claims = apple.standIn.notificationClaims(
            type: type, subject: subject, audience: AppleServer.bundleID.rawValue, jti: jti)
        let body = try await apple.standIn.notificationBody(claims, signing: signing)
        return try await apple.server.app().send(.post, APIPaths.Apple.notifications, body: ByteBuffer(bytes: body))
    }

    @Test(arguments: Backend.available)
    func emailEventsUpdateTheRelayStateAndAReplayDoesNothing(_ backend: Backend) async throws {
        try await withAppleServer(backend) { apple in
            try await apple.signIn(apple.server.app(), subject: "001.mail")
            let disabled = try await notify(apple, type: "email-disabled", subject: "001.mail", jti: "jti-disabled")
            #expect(disabled.status == .ok, "\(disabled)")
            #expect(try await apple.server.store.appleLink(subject: "001.mail")?.emailEnabled == false)

            #expect(try await notify(apple, type: "email-enabled", subject: "001.mail").status == .ok)
            #expect(try await apple.server.store.appleLink(subject: "001.mail")?.emailEnabled == true)

            let replay = try await notify(apple, type: "email-disabled", subject: "001.mail", jti: "jti-disabled")
            #expect(replay.status == .ok, "a replay is acknowledged")
            #expect(
                try await apple.server.store.appleLink(subject: "001.mail")?.emailEnabled == true, "and changes nothing"
            )
            // The audit log: the sign-up by Apple, then each notification once, as Apple's doing.
            let user = try #require(try await apple.server.store.appleLink(subject: "001.mail")?.userID)
            let events = try await apple.server.store.auditEvents(AuditQuery(userID: user)).reversed().map(\.event)
            #expect(
                events.map(\.type) == [
                    "account.created", "apple.linked", "signin.succeeded", "apple.notification", "apple.notification",
                ])
            #expect(events.suffix(2).map(\.detail) == ["email-disabled", "email-enabled"])
            #expect(events.suffix(2).allSatisfy { $0.actor == "apple" } && events[2].detail == "apple")
        }
    }

    @Test(arguments: Backend.available)
    func consentRevokedEndsTheSessionsAndTheSameAppleIDComesBackToItsAccount(_ backend: Backend) async throws {
        try await withAppleServer(backend) { apple in
            let session: SessionResponse = try await apple.signIn(apple.server.app(), subject: "001.revoked").decode()
            #expect(try await notify(apple, type: "consent-revoked", subject: "001.revoked").status == .ok)
            let revoked = try #require(
                try await apple.server.store.appleLink(subject: "001.revoked"), "the link's history is kept")
            #expect(revoked.consentRevokedAt != nil)
            #expect(revoked.sealedRefreshToken == nil, "the revoked authorization's token is forgotten")
            let me = try await bearer(apple, session.session.token).send(.get, APIPaths.Native.me)
            #expect(me.status == .unauthorized && me.errorCode == "session.invalid")
            #expect(try await apple.server.store.user(id: try #require(UUID(uuidString: session.user.id))) != nil)

            #expect(
                try await notify(apple, type: "consent-revoked", subject: "001.revoked").status == .ok, "idempotent")
            #expect(try await notify(apple, type: "consent-revoked", subject: "001.never-linked").status == .ok)

            // The user consents again: Apple treats it as a first sign-in, the server returns it to the same account.
            let again: SessionResponse = try await apple.signIn(apple.server.app(), subject: "001.revoked").decode()
            #expect(again.user.id == session.user.id, "no second account")
            let restored = try #require(try await apple.server.store.appleLink(subject: "001.revoked"))
            #expect(restored.consentRevokedAt == nil)
            #expect(restored.sealedRefreshToken != nil)
            #expect(try await bearer(apple, again.session.token).send(.get, APIPaths.Native.me).status == .ok)
        }
    }

    @Test(arguments: Backend.available, ["account-delete", "account-deleted"])
    func accountDeletionDeletesAnAppleOnlyUserButNotOneWithAPasskey(_ backend: Backend, _ type: String) async throws {
        try await withAppleServer(backend) { apple in
            let appleOnly: SessionResponse = try await apple.signIn(apple.server.app(), subject: "001.only").decode()
            #expect(try await notify(apple, type: type, subject: "001.only").status == .ok)
            #expect(try await apple.server.store.user(id: try #require(UUID(uuidString: appleOnly.user.id))) == nil)

            let passkeyUser = NativeClient(http: apple.server.app())
            let signedUp: SessionResponse = try await passkeyUser.signUp("grace", with: VirtualAuthenticator()).decode()
            await passkeyUser.http.setBearer(signedUp.session.token)
            #expect(try await apple.signIn(passkeyUser.http, subject: "001.mixed").status == .ok)
            #expect(try await notify(apple, type: type, subject: "001.mixed").status == .ok)
            #expect(try await apple.server.store.appleLink(subject: "001.mixed") == nil)
            #expect(try await apple.server.store.user(named: "grace") != nil, "a user with a passkey keeps the account")
        }
    }

    @Test(arguments: Backend.available)
    func aBadPayloadIsRefusedWithItsCode(_ backend: Backend) async throws {
        try await withAppleServer(backend) { apple in
            try await apple.signIn(apple.server.app(), subject: "001.forged")
            let forged = try await notify(
                apple, type: "consent-revoked", subject: "001.forged", signing: .tamperedPayload)
            #expect(forged.status == .badRequest && forged.errorCode == "apple.badSignature", "\(forged)")
            let unsigned = try await notify(apple, type: "consent-revoked", subject: "001.forged", signing: .unsigned)
            #expect(unsigned.status == .badRequest && unsigned.errorCode == "apple.algorithmNotAllowed", "\(unsigned)")
            let noPayload = try await apple.server.app().send(.post, APIPaths.Apple.notifications, text: "{}")
            #expect(
                noPayload.status == .badRequest && noPayload.errorCode == "apple.malformedNotification", "\(noPayload)")
            #expect(try await apple.server.store.appleLink(subject: "001.forged") != nil, "nothing changed")
        }
    }
}
