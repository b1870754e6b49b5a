import Foundation
import HTTPTypes
import LatchkeyAPI
import LatchkeyStore
import Testing
import VirtualAuthenticator

@testable import LatchkeyServer

/// Email over HTTP, with a real SMTP server (aiosmtpd) on loopback: verified addresses, recovery by email, notices.
@Suite("Email", SMTPTestServer.required)
struct EmailTests {
    static func settings(_ smtp: SMTPTestServer) -> ServerSettings {
        var settings = ServerSettings.test
        settings.smtpURL = smtp.url()
        return settings
    }

    /// Adds `address` to the app's account and returns the code the server sent to it (the `count`-th message).
    static func addAddress(_ app: HTTPSession, _ address: String, smtp: SMTPTestServer, count: Int) async throws
        -> String
    {
        let added = try await app.send(.post, APIPaths.Native.emails, json: EmailRequest(address: address))
        #expect(added.status == .accepted, "\(added)")
        let message = try #require(try await smtp.waitForMessages(count).last)
        #expect(message.to == [address] && message.tls && message.login == "latchkey")
        return try #require(message.code)
    }

    @Test("add an address, verify it with the code sent to it, and it is the primary", arguments: Backend.available)
    func addAndVerify(_ backend: Backend) async throws {
        let smtp = try await SMTPTestServer()
        try await withServer(backend, settings: Self.settings(smtp)) { server in
            let app = try await server.signedUpApp("alice", with: VirtualAuthenticator()).http
            let code = try await Self.addAddress(app, "Alice@Example.com", smtp: smtp, count: 1)
            let message = try #require(smtp.messages().first)
            #expect(message.header("From") == "no-reply@localhost")
            #expect(message.text.contains(code) && message.text.contains("10 minutes"))

            let pending: EmailList = try await app.send(.get, APIPaths.Native.emails).decode()
            #expect(pending.emails.map(\.verified) == [false])
            let wrong = try await app.send(
                .post, APIPaths.Native.emailVerify,
                json: EmailVerifyRequest(address: "alice@example.com", code: "000000"))
            #expect(wrong.status == .badRequest && wrong.errorCode == "email.codeInvalid", "\(wrong)")
            let verified = try await app.send(
                .post, APIPaths.Native.emailVerify, json: EmailVerifyRequest(address: "alice@example.com", code: code))
            #expect(verified.status == .ok, "\(verified)")
            #expect(try verified.decode(EmailAddress.self).primary)
            let again = try await app.send(
                .post, APIPaths.Native.emailVerify, json: EmailVerifyRequest(address: "alice@example.com", code: code))
            #expect(again.errorCode == "email.codeInvalid", "a code works once")

            // The address is told it was added (a notice, through the outbox).
            let notice = try #require(try await smtp.waitForMessages(2).last)
            #expect(notice.header("Subject") == "An email address was added to your Latchkey account")
            #expect(notice.to == ["Alice@Example.com"])
            let user = try #require(try await server.store.user(named: "alice"))
            #expect(try await server.store.emails(ofUser: user.id).first?.verifiedAt != nil)
        }
    }

    @Test("lose the passkey, get a code by email, register a new passkey, sign in; the account is told")
    func recoverByEmail() async throws {
        let smtp = try await SMTPTestServer()
        try await withServer(.sqlite, settings: Self.settings(smtp)) { server in
            let app = try await server.signedUpApp("bob", with: VirtualAuthenticator()).http
            let code = try await Self.addAddress(app, "bob@example.com", smtp: smtp, count: 1)
            _ = try await app.send(
                .post, APIPaths.Native.emailVerify, json: EmailVerifyRequest(address: "bob@example.com", code: code))
            _ = try await smtp.waitForMessages(2)

            // Someone asks for an unknown address: the same answer, and nothing is sent.
            let stranger = server.app()
            let unknown = try await stranger.send(
                .post, APIPaths.Native.recoveryEmail, json: RecoveryEmailRequest(email: "nobody@example.com"))
            let known = try await stranger.send(
                .post, APIPaths.Native.recoveryEmail, json: RecoveryEmailRequest(email: "BOB@example.com"))
            #expect(unknown.status == .accepted && known.status == .accepted && unknown.text == known.text)
            let recoveryMessage = try #require(try await smtp.waitForMessages(3).last)
            #expect(recoveryMessage.to == ["bob@example.com"])
            #expect(recoveryMessage.header("Subject")?.hasSuffix("is your Latchkey recovery code") == true)
            try await Task.sleep(for: .milliseconds(300))
            #expect(smtp.messages().count == 3, "nothing went to the unknown address")

            let wrong = try await stranger.send(
                .post, APIPaths.Native.recoveryOptions,
                json: RecoveryOptionsRequest(email: "bob@example.com", code: "111111"))
            #expect(wrong.status == .unauthorized && wrong.errorCode == "recovery.invalid")
            let options = try await stranger.send(
                .post, APIPaths.Native.recoveryOptions,
                json: RecoveryOptionsRequest(email: "bob@example.com", code: try #require(recoveryMessage.code)))
            #expect(options.status == .ok, "\(options)")
            let started: RegistrationOptionsResponse = try options.decode()
            let newPhone = VirtualAuthenticator()
            let credential = try await newPhone.register(options: started.options, origin: ServerHarness.origin)
            let verify = try await stranger.send(
                .post, APIPaths.Native.recoveryVerify,
                json: RegistrationVerifyRequest(ticket: started.ticket, credential: credential))
            #expect(verify.status == .created, "\(verify)")
            #expect(try await NativeClient(http: server.app()).signIn("bob", with: newPhone).status == .ok)
            let notice = try #require(try await smtp.waitForMessages(4).last)
            #expect(notice.header("Subject") == "Your Latchkey account was recovered")

            // The code is spent.
            let reused = try await stranger.send(
                .post, APIPaths.Native.recoveryOptions,
                json: RecoveryOptionsRequest(email: "bob@example.com", code: try #require(recoveryMessage.code)))
            #expect(reused.errorCode == "recovery.invalid")

            // The audit log has it all, the way back in included.
            let user = try #require(try await server.store.user(named: "bob"))
            let events = try await server.store.auditEvents(AuditQuery(userID: user.id)).reversed().map(\.event)
            #expect(
                events.map(\.type) == [
                    "account.created", "passkey.added", "email.added", "email.verified", "recovery.started",
                    "recovery.used", "passkey.added", "signin.succeeded",
                ])
            #expect(events[4].detail == "email" && events[2].detail == "bob@example.com")
        }
    }

    @Test("an address another account verified first cannot be verified; removing tells the address; primary moves")
    func takenRemovedPrimary() async throws {
        let smtp = try await SMTPTestServer()
        try await withServer(.sqlite, settings: Self.settings(smtp)) { server in
            let ann = try await server.signedUpApp("ann", with: VirtualAuthenticator()).http
            let carl = try await server.signedUpApp("carl", with: VirtualAuthenticator()).http
            let annCode = try await Self.addAddress(ann, "shared@example.com", smtp: smtp, count: 1)
            let carlCode = try await Self.addAddress(carl, "shared@example.com", smtp: smtp, count: 2)
            #expect(
                try await ann.send(
                    .post, APIPaths.Native.emailVerify,
                    json: EmailVerifyRequest(address: "shared@example.com", code: annCode)
                ).status == .ok)
            let taken = try await carl.send(
                .post, APIPaths.Native.emailVerify,
                json: EmailVerifyRequest(address: "shared@example.com", code: carlCode))
            #expect(taken.status == .conflict && taken.errorCode == "email.taken", "\(taken)")
            _ = try await smtp.waitForMessages(3)

            let second = try await Self.addAddress(ann, "ann@example.com", smtp: smtp, count: 4)
            _ = try await ann.send(
                .post, APIPaths.Native.emailVerify, json: EmailVerifyRequest(address: "ann@example.com", code: second))
            _ = try await smtp.waitForMessages(5)
            let primary = try await ann.send(
                .post, APIPaths.Native.emailPrimary, json: EmailRequest(address: "ann@example.com"))
            #expect(try primary.decode(EmailList.self).emails.first?.address == "ann@example.com")
            let unknown = try await ann.send(
                .post, APIPaths.Native.emailPrimary, json: EmailRequest(address: "nobody@example.com"))
            #expect(unknown.status == .notFound && unknown.errorCode == "email.notFound")

            let removed = try await ann.send(
                .post, APIPaths.Native.emailRemove, json: EmailRequest(address: "shared@example.com"))
            #expect(removed.status == .noContent, "\(removed)")
            // The primary and the removed address are both told.
            let notices = try await smtp.waitForMessages(7).suffix(2)
            #expect(Set(notices.flatMap(\.to)) == ["ann@example.com", "shared@example.com"])
            #expect(
                notices.allSatisfy { $0.header("Subject") == "An email address was removed from your Latchkey account" }
            )
        }
    }

    @Test("changes need a recent re-authentication; bad addresses, wrong codes and floods are refused")
    func refusals() async throws {
        let smtp = try await SMTPTestServer()
        try await withServer(.sqlite, settings: Self.settings(smtp)) { server in
            let app = try await server.signedUpApp("dora", with: VirtualAuthenticator()).http
            let invalid = try await app.send(.post, APIPaths.Native.emails, json: EmailRequest(address: "dora\r\n@x"))
            #expect(invalid.status == .badRequest && invalid.errorCode == "email.invalid")
            _ = try await Self.addAddress(app, "dora@example.com", smtp: smtp, count: 1)
            for _ in 0..<5 {
                let wrong = try await app.send(
                    .post, APIPaths.Native.emailVerify,
                    json: EmailVerifyRequest(address: "dora@example.com", code: "999999"))
                #expect(wrong.errorCode == "email.codeInvalid")
            }
            let throttled = try await app.send(
                .post, APIPaths.Native.emailVerify,
                json: EmailVerifyRequest(address: "dora@example.com", code: "999999"))
            #expect(throttled.status == .tooManyRequests && throttled.errorCode == "email.throttled")
            #expect(Int(throttled.headers[.retryAfter] ?? "") ?? 0 > 0)

            // Sending to one address: five codes, then throttled.
            for _ in 0..<4 {
                #expect(
                    try await app.send(.post, APIPaths.Native.emails, json: EmailRequest(address: "dora@example.com"))
                        .status == .accepted)
            }
            let flood = try await app.send(
                .post, APIPaths.Native.emails, json: EmailRequest(address: "dora@example.com"))
            #expect(flood.status == .tooManyRequests && flood.errorCode == "email.throttled", "\(flood)")

            try await server.database.ageSessionVerifications()
            let stale = try await app.send(.post, APIPaths.Native.emails, json: EmailRequest(address: "d2@example.com"))
            #expect(stale.status == .unauthorized && stale.errorCode == "reauth.required")
            let staleRemove = try await app.send(
                .post, APIPaths.Native.emailRemove, json: EmailRequest(address: "dora@example.com"))
            #expect(staleRemove.errorCode == "reauth.required")
        }
    }

    @Test("a code past its expiry verifies nothing and recovers nothing", arguments: Backend.available)
    func expiredCodes(_ backend: Backend) async throws {
        let smtp = try await SMTPTestServer()
        try await withServer(backend, settings: Self.settings(smtp)) { server in
            let app = try await server.signedUpApp("gus", with: VirtualAuthenticator()).http
            let code = try await Self.addAddress(app, "gus@example.com", smtp: smtp, count: 1)
            try await server.database.expireEmailCodes()
            let late = try await app.send(
                .post, APIPaths.Native.emailVerify, json: EmailVerifyRequest(address: "gus@example.com", code: code))
            #expect(late.status == .badRequest && late.errorCode == "email.codeInvalid", "\(late)")

            let fresh = try await Self.addAddress(app, "gus@example.com", smtp: smtp, count: 2)
            let verified = try await app.send(
                .post, APIPaths.Native.emailVerify, json: EmailVerifyRequest(address: "gus@example.com", code: fresh))
            #expect(verified.status == .ok, "\(verified)")
            _ = try await smtp.waitForMessages(3)
            let stranger = server.app()
            _ = try await stranger.send(
                .post, APIPaths.Native.recoveryEmail, json: RecoveryEmailRequest(email: "gus@example.com"))
            let recoveryCode = try #require(try await smtp.waitForMessages(4).last?.code)
            try await server.database.expireEmailCodes()
            let expired = try await stranger.send(
                .post, APIPaths.Native.recoveryOptions,
                json: RecoveryOptionsRequest(email: "gus@example.com", code: recoveryCode))
            #expect(expired.status == .unauthorized && expired.errorCode == "recovery.invalid", "\(expired)")
        }
    }

    @Test("codes sent for one account are throttled across its addresses, with Retry-After")
    func sendingThrottledPerAccount() async throws {
        let smtp = try await SMTPTestServer()
        try await withServer(.sqlite, settings: Self.settings(smtp)) { server in
            let app = try await server.signedUpApp("hana", with: VirtualAuthenticator()).http
            for number in 1...StoredEmail.maximumPerAccount {
                let added = try await app.send(
                    .post, APIPaths.Native.emails, json: EmailRequest(address: "hana\(number)@example.com"))
                #expect(added.status == .accepted, "\(added)")
            }
            // Each address has had one code; the account has had five.
            let sixth = try await app.send(
                .post, APIPaths.Native.emails, json: EmailRequest(address: "hana1@example.com"))
            #expect(sixth.status == .tooManyRequests && sixth.errorCode == "email.throttled", "\(sixth)")
            #expect(Int(sixth.headers[.retryAfter] ?? "") ?? 0 > 0)
            _ = try await smtp.waitForMessages(StoredEmail.maximumPerAccount)
            try await Task.sleep(for: .milliseconds(300))
            #expect(smtp.messages().count == StoredEmail.maximumPerAccount, "the refused send sent nothing")
        }
    }

    @Test("an SMTP server that defers a code (451) gets it again a few seconds later, once")
    func deferredCodeIsRetriedOnce() async throws {
        let smtp = try await SMTPTestServer()
        try await withServer(.sqlite, settings: Self.settings(smtp)) { server in
            let app = try await server.signedUpApp("ida", with: VirtualAuthenticator()).http
            let started = ContinuousClock.now
            // The test server answers 451 the first time a message to later@… is tried.
            let added = try await app.send(
                .post, APIPaths.Native.emails, json: EmailRequest(address: "later@example.com"))
            #expect(added.status == .accepted, "\(added)")
            let message = try #require(try await smtp.waitForMessages(1).first)
            #expect(ContinuousClock.now - started > .seconds(4), "sent at the retry, 5 s after the deferral")
            let verified = try await app.send(
                .post, APIPaths.Native.emailVerify,
                json: EmailVerifyRequest(address: "later@example.com", code: try #require(message.code)))
            #expect(verified.status == .ok, "the retried code is the one the server holds: \(verified)")
            // The notice of the new address, and nothing sent twice.
            _ = try await smtp.waitForMessages(2)
            try await Task.sleep(for: .milliseconds(500))
            #expect(smtp.messages().count == 2, "\(smtp.messages().map { $0.header("Subject") ?? "" })")
        }
    }

    @Test("security notices: a passkey added, the password set, signed out everywhere")
    func notices() async throws {
        let smtp = try await SMTPTestServer()
        try await withServer(.sqlite, settings: Self.settings(smtp)) { server in
            let app = try await server.signedUpApp("erin", with: VirtualAuthenticator()).http
            let code = try await Self.addAddress(app, "erin@example.com", smtp: smtp, count: 1)
            _ = try await app.send(
                .post, APIPaths.Native.emailVerify, json: EmailVerifyRequest(address: "erin@example.com", code: code))
            _ = try await smtp.waitForMessages(2)
            #expect(
                try await NativeClient(http: app).addPasskey(name: "Laptop", with: VirtualAuthenticator()).status
                    == .created)
            var notice = try #require(try await smtp.waitForMessages(3).last)
            #expect(notice.header("Subject") == "A passkey was added to your Latchkey account")
            #expect(notice.text.contains("Laptop"))
            let password = try await app.send(
                .put, APIPaths.Native.password, json: SetPasswordRequest(newPassword: "correct horse battery staple"))
            #expect(password.status == .noContent, "\(password)")
            notice = try #require(try await smtp.waitForMessages(4).last)
            #expect(notice.header("Subject") == "Your Latchkey password changed")
            #expect(try await app.send(.delete, APIPaths.Native.sessions).status == .ok)
            notice = try #require(try await smtp.waitForMessages(5).last)
            #expect(notice.header("Subject") == "Your Latchkey account was signed out everywhere")
            #expect(notice.to == ["erin@example.com"])
        }
    }

    @Test("without --smtp-url the email routes answer 404 email.disabled")
    func disabled() async throws {
        try await withServer(.sqlite) { server in
            let app = try await server.signedUpApp("fay", with: VirtualAuthenticator()).http
            let list = try await app.send(.get, APIPaths.Native.emails)
            #expect(list.status == .notFound && list.errorCode == "email.disabled")
            let recovery = try await server.app().send(
                .post, APIPaths.Native.recoveryEmail, json: RecoveryEmailRequest(email: "fay@example.com"))
            #expect(recovery.errorCode == "email.disabled")
        }
    }
}
