import AppleSignIn
import AppleStandIn
import Foundation
import Testing

@Suite("Server-to-server notifications")
struct NotificationTests {
    @Test(arguments: AppleNotificationEvent.Kind.allCases)
    func verifiesEveryEventType(kind: AppleNotificationEvent.Kind) async throws {
        try await Harness.run { h in
            let claims = h.standIn.notificationClaims(
                type: kind.rawValue, subject: "001.n.user", audience: Harness.bundleID.rawValue,
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
            var claims = h.standIn.notificationClaims(
                type: "email-disabled", subject: "s", audience: Harness.bundleID.rawValue)
            claims["events"] = nil
            let body = try await h.standIn.notificationBody(claims)
            #expect(await errorCode { _ = try await h.notifications.verify(body: body) } == .malformedNotification)
        }
    }

    @Test func rejectsAnUnknownEventType() async throws {
        try await Harness.run { h in
            let claims = h.standIn.notificationClaims(
                type: "password-changed", subject: "s", audience: Harness.bundleID.rawValue)
            let body = try await h.standIn.notificationBody(claims)
            #expect(await errorCode { _ = try await h.notifications.verify(body: body) } == .unknownEventType)
        }
    }

    @Test func rejectsABadSignatureAWrongAudienceAnExpiryAndAWrongIssuer() async throws {
        try await Harness.run { h in
            let good = h.standIn.notificationClaims(
                type: "consent-revoked", subject: "s", audience: Harness.bundleID.rawValue)
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
            #expect(
                await errorCode { _ = try await h.notifications.verify(body: Array(body.utf8)) }
                    == .malformedNotification)
        }
    }

    @Test func rejectsEventsThatAreNotAnEventObject() async throws {
        try await Harness.run { h in
            var claims = h.standIn.notificationClaims(
                type: "consent-revoked", subject: "s", audience: Harness.bundleID.rawValue)
            claims["events"] = .string(#"{"type":"consent-revoked"}"#)
            let body = try await h.standIn.notificationBody(claims)
            #expect(await errorCode { _ = try await h.notifications.verify(body: body) } == .malformedNotification)
        }
    }

    @Test func takesAnEventTimeInSeconds() async throws {
        try await Harness.run { h in
            let seconds = Int(h.clock.now.timeIntervalSince1970)
            var claims = h.standIn.notificationClaims(
                type: "consent-revoked", subject: "001.s", audience: Harness.bundleID.rawValue)
            claims["events"] = .string(#"{"type":"consent-revoked","sub":"001.s","event_time":\#(seconds)}"#)
            let notification = try await h.notifications.verify(body: try await h.standIn.notificationBody(claims))
            let eventTime = try #require(notification.event.eventTime)
            #expect(Int(eventTime.timeIntervalSince1970) == seconds)
        }
    }

    @Test func takesEventsAsAJSONObject() async throws {
        try await Harness.run { h in
            let millis = Int(h.clock.now.timeIntervalSince1970) * 1000
            var claims = h.standIn.notificationClaims(
                type: "email-disabled", subject: "001.o", audience: Harness.bundleID.rawValue)
            claims["events"] = .object([
                "type": .string("email-disabled"), "sub": .string("001.o"), "event_time": .int(millis),
                "email": .string("o@privaterelay.appleid.com"), "is_private_email": .bool(true),
            ])
            let notification = try await h.notifications.verify(body: try await h.standIn.notificationBody(claims))
            #expect(notification.event.kind == .emailDisabled)
            #expect(notification.event.subject == "001.o")
            #expect(notification.event.email == "o@privaterelay.appleid.com")
            #expect(notification.event.isPrivateEmail == true)
            let eventTime = try #require(notification.event.eventTime)
            #expect(Int(eventTime.timeIntervalSince1970) == millis / 1000)
        }
    }
}
