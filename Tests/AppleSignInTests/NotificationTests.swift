import AppleSignIn
import AppleStandIn
import Foundation
import Testing

@Suite("Server-to-server notifications")
struct NotificationTests {
    @Test(arguments: AppleNotificationEvent.Kind.allCases)
    func verifiesEveryEventType(kind: AppleNotificationEvent.Kind) async throws {
        try await Harness.run { h in
            let claims = h.standIn.notificationClaims(type: kind.rawValue, subject: "001.n.user", audience: Harness.bundleID.rawValue,
                                                      jti: "jti-\(kind.rawValue)", email: "r@privaterelay.appleid.com",
                                                      isPrivateEmail: true)
            let notification = try await h.notifications.verify(body: try await h.standIn.notificationBody(claims))
            #expect(notification.id == "jti-\(kind.rawValue)")
            #expect(notification.audience == Harness.bundleID.rawValue)
            #expect(notification.event.kind == kind)
            #expect(notification.event.subject == "001.n.user")
            #expect(notification.event.email == "r@privaterelay.appleid.com")
            #expect(notification.event.isPrivateEmail == true)
            let eventTime = try #require(notification.event.eventTime)
            #expect(abs(eventTime.timeIntervalSince(h.clock.now)) < 1)
            #expect(kind.endsLink == [.consentRevoked, .accountDelete, .accountDeleted].contains(kind))
        }
    }

    @Test func rejectsANotificationWithoutEvents() async throws {
        try await Harness.run { h in
            var claims = h.standIn.notificationClaims(type: "email-disabled", subject: "s", audience: Harness.bundleID.rawValue)
            claims["events"] = nil
            let token = try await h.standIn.mint(claims)
            #expect(await errorCode { _ = try await h.notifications.verify(payload: token) } == .malformedNotification)
        }
    }

    @Test func rejectsAnUnknownEventType() async throws {
        try await Harness.run { h in
            let claims = h.standIn.notificationClaims(type: "password-changed", subject: "s", audience: Harness.bundleID.rawValue)
            let body = try await h.standIn.notificationBody(claims)
            #expect(await errorCode { _ = try await h.notifications.verify(body: body) } == .unknownEventType)
        }
    }

    @Test func rejectsABadSignatureAWrongAudienceAnExpiryAndAWrongIssuer() async throws {
        try await Harness.run { h in
            let good = h.standIn.notificationClaims(type: "consent-revoked", subject: "s", audience: Harness.bundleID.rawValue)
            let forged = try await h.standIn.notificationBody(good, signing: .wrongKey)
            #expect(await errorCode { _ = try await h.notifications.verify(body: forged) } == .badSignature)
            let unsigned = try await h.standIn.notificationBody(good, signing: .unsigned)
            #expect(await errorCode { _ = try await h.notifications.verify(body: unsigned) } == .algorithmNotAllowed)

            var otherApp = good
            otherApp["aud"] = .string("com.other.app")
            let misaddressed = try await h.standIn.notificationBody(otherApp)
            #expect(await errorCode { _ = try await h.notifications.verify(body: misaddressed) } == .audienceMismatch)

            var wrongIssuer = good
            wrongIssuer["iss"] = .string("https://evil.example")
            let impostor = try await h.standIn.notificationBody(wrongIssuer)
            #expect(await errorCode { _ = try await h.notifications.verify(body: impostor) } == .issuerMismatch)

            let body = try await h.standIn.notificationBody(good)
            h.clock.advance(700)
            #expect(await errorCode { _ = try await h.notifications.verify(body: body) } == .tokenExpired)
        }
    }

    @Test(arguments: ["", "{}", #"{"payload": 3}"#, "[]", "not json"])
    func rejectsAMalformedBody(body: String) async throws {
        try await Harness.run { h in
            #expect(await errorCode { _ = try await h.notifications.verify(body: Array(body.utf8)) } == .malformedNotification)
        }
    }

    @Test func rejectsEventsThatAreNotAnEventObject() async throws {
        try await Harness.run { h in
            var claims = h.standIn.notificationClaims(type: "consent-revoked", subject: "s", audience: Harness.bundleID.rawValue)
            claims["events"] = .string(#"{"type":"consent-revoked"}"#)
            let body = try await h.standIn.notificationBody(claims)
            #expect(await errorCode { _ = try await h.notifications.verify(body: body) } == .malformedNotification)
        }
    }
}
