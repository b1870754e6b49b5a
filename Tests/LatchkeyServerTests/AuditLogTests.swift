import Foundation
import HTTPTypes
import Hummingbird
import HummingbirdTesting
import LatchkeyAPI
import LatchkeyStore
import Testing
import VirtualAuthenticator
import WebAuthn

@testable import LatchkeyServer

/// The audit log over HTTP: what users and operators do is recorded with who, when, from where and with which
/// authenticator, and read through the admin API; on both databases.
@Suite("Audit log")
struct AuditLogTests {
    /// `user`'s events through `GET /admin/v1/audit`, oldest first.
    static func events(of user: UUID, _ admin: any TestClientProtocol, query: String = "") async throws
        -> [AdminAuditEvent]
    {
        let answer = try await AdminAPITests.call(
            admin, .get, AdminPaths.audit + "?user=\(user.uuidString.lowercased())" + query)
        #expect(answer.status == .ok, "\(answer)")
        return try AdminAPITests.decode(AdminAuditEventList.self, answer.text).events.reversed()
    }

    @Test(
        "sign-up, sign-ins (one refused), a passkey added, renamed and removed, signing out everywhere: each recorded",
        arguments: Backend.available)
    func userEvents(_ backend: Backend) async throws {
        try await AdminAPITests.withAdmin(backend) { server, admin in
            let phone = VirtualAuthenticator()
            let app = try await server.signedUpApp("alice", with: phone)
            let user = try #require(try await server.store.user(named: "alice"))
            let signedIn = try await NativeClient(http: server.app()).signIn("alice", with: phone)
            #expect(signedIn.status == .ok, "\(signedIn)")
            let refused = try await NativeClient(http: server.app()).signIn(
                "alice", with: phone, tampering: Tampering(corruptSignature: true))
            #expect(refused.status == .badRequest, "\(refused)")

            let key = VirtualAuthenticator()
            let added = try await app.addPasskey(name: "Key", with: key)
            #expect(added.status == .ok || added.status == .created, "\(added)")
            let credentials = try await server.store.credentials(ofUser: user.id)
            let second = Base64URL.encode(Array(try #require(credentials.last).id))
            let renamed = try await app.http.send(
                .patch, APIPaths.Native.passkey(id: second), json: RenamePasskeyRequest(name: "Blue key"))
            #expect(renamed.status == .ok, "\(renamed)")
            let removed = try await app.http.send(.delete, APIPaths.Native.passkey(id: second))
            #expect(removed.status == .ok, "\(removed)")
            let everywhere = try await app.http.send(.delete, APIPaths.Native.sessions)
            #expect(everywhere.status == .ok, "\(everywhere)")

            let events = try await Self.events(of: user.id, admin)
            #expect(
                events.map(\.type) == [
                    "account.created", "passkey.added", "signin.succeeded", "signin.failed", "passkey.added",
                    "passkey.renamed", "passkey.removed", "sessions.ended",
                ])
            #expect(events.allSatisfy { $0.ip == "127.0.0.1" && $0.actor == nil && $0.userId != nil })
            #expect(events[2].detail == "passkey" && events[2].authenticator != nil)
            #expect(events[3].detail == "badSignature", "the refusal's code: \(events[3])")
            #expect(events[5].detail == second + " renamed to Blue key")
            #expect(events[6].detail == second)

            // Paged, newest first.
            let page = try AdminAPITests.decode(
                AdminAuditEventList.self,
                try await AdminAPITests.call(
                    admin, .get, AdminPaths.audit + "?user=\(user.id.uuidString)&limit=3"
                ).text)
            #expect(page.events.map(\.type) == ["sessions.ended", "passkey.removed", "passkey.renamed"])
            let rest = try await Self.events(of: user.id, admin, query: "&before=\(try #require(page.next))")
            #expect(rest.count == 5)
            for bad in ["user=nope", "since=yesterday", "limit=0", "limit=1001", "before=-1"] {
                let answer = try await AdminAPITests.call(admin, .get, AdminPaths.audit + "?" + bad)
                #expect(answer.status == .badRequest && answer.text.contains("admin.invalidQuery"), "\(bad): \(answer)")
            }
        }
    }

    @Test("an operator's changes are recorded with the admin key's name", arguments: Backend.available)
    func operatorEvents(_ backend: Backend) async throws {
        try await AdminAPITests.withAdmin(backend) { server, admin in
            _ = try await server.signedUpApp("bob", with: VirtualAuthenticator())
            let user = try #require(try await server.store.user(named: "bob"))
            let id = user.id.uuidString.lowercased()
            _ = try await AdminAPITests.call(admin, .delete, AdminPaths.sessions(user: id))
            _ = try await AdminAPITests.call(admin, .post, AdminPaths.recoveryLink(user: id))
            let deleted = try await AdminAPITests.call(admin, .delete, AdminPaths.user(id: id))
            #expect(deleted.status == .noContent, "\(deleted)")
            let events = try await Self.events(of: user.id, admin)
            #expect(
                events.map(\.type) == [
                    "account.created", "passkey.added", "sessions.ended", "recovery.linkIssued", "account.deleted",
                ])
            #expect(events.suffix(3).allSatisfy { $0.actor == "admin:ops" }, "\(events)")
            #expect(events.prefix(2).allSatisfy { $0.actor == nil })
        }
    }

    @Test("password sign-up and sign-ins, a wrong password among them")
    func passwordEvents() async throws {
        var settings = AdminAPITests.settings()
        settings.passwordSignIn = true
        try await withServer(.sqlite, settings: settings) { server in
            let app = server.app()
            let up = try await app.send(
                .post, APIPaths.Native.passwordRegister,
                json: PasswordRegisterRequest(username: "carol", password: "correct horse battery staple"))
            #expect(up.status == .created, "\(up)")
            for password in ["wrong horse battery staple", "correct horse battery staple"] {
                _ = try await app.send(
                    .post, APIPaths.Native.passwordSignIn,
                    json: PasswordSignInRequest(username: "carol", password: password))
            }
            let user = try #require(try await server.store.user(named: "carol"))
            let events = try await server.store.auditEvents(AuditQuery(userID: user.id)).reversed().map(\.event)
            #expect(
                events.map(\.type) == [
                    "account.created", "password.set", "signin.failed", "signin.succeeded",
                ])
            #expect(events.map(\.detail) == ["password", nil, "password.invalid", "password"])
        }
    }

    @Test("with --audit-retention-days 0 nothing is recorded; otherwise events older than the retention are purged")
    func retention() async throws {
        var off = ServerSettings.test
        off.auditRetentionDays = 0
        try await withServer(.sqlite, settings: off) { server in
            _ = try await server.signedUpApp("dan", with: VirtualAuthenticator())
            #expect(try await server.store.auditEvents(AuditQuery()).isEmpty)
        }
        var short = ServerSettings.test
        short.auditRetentionDays = 1
        try await withServer(.sqlite, settings: short) { server in
            _ = try await server.signedUpApp("erin", with: VirtualAuthenticator())
            #expect(try await server.store.auditEvents(AuditQuery()).count == 2)
            let purge = ExpiryPurgeService(
                store: server.store, interval: .seconds(60), logger: quietLogger,
                auditRetention: server.configuration.auditRetention)
            try await purge.purge(now: Date().addingTimeInterval(3600))
            #expect(try await server.store.auditEvents(AuditQuery()).count == 2, "an hour on, kept")
            try await purge.purge(now: Date().addingTimeInterval(86_400 + 60))
            #expect(try await server.store.auditEvents(AuditQuery()).isEmpty, "a day on, purged")
        }
        #expect(throws: ConfigurationError.self) {
            var bad = ServerSettings.test
            bad.auditRetentionDays = -1
            _ = try ServerConfiguration(bad)
        }
    }

    @Test("texts an event keeps are cut at 512 bytes on a character boundary, without NUL")
    func clipping() {
        let long = String(repeating: "é", count: 600)
        let clipped = AuditLog.clipped(long)
        #expect(clipped.utf8.count == 512 && long.hasPrefix(clipped))
        #expect(AuditLog.clipped("a\u{0}b") == "ab")
        #expect(AuditLog.clipped("Mozilla/5.0") == "Mozilla/5.0")
    }
}
