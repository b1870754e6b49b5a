import Foundation
import HTTPTypes
import LatchkeyAPI
import LatchkeyStore
import Logging
import Testing
import VirtualAuthenticator
import WebAuthn

@testable import LatchkeyServer

extension HTTPSession {
    func passwordRegister(_ username: String, _ password: String, displayName: String? = nil) async throws -> Reply {
        try await send(
            .post, APIPaths.Native.passwordRegister,
            json: PasswordRegisterRequest(username: username, displayName: displayName, password: password))
    }

    func passwordSignIn(_ username: String, _ password: String) async throws -> Reply {
        try await send(
            .post, APIPaths.Native.passwordSignIn, json: PasswordSignInRequest(username: username, password: password))
    }

    /// Signs in with the reply's session token (as an app).
    func adopt(_ reply: Reply) async throws -> SessionResponse {
        let session: SessionResponse = try reply.decode()
        setBearer(session.session.token)
        return session
    }
}

let alicePassword = "correct horse battery staple"

@Suite("Password accounts")
struct PasswordAccountTests {
    @Test(
        "Sign-up: 201 with a session, signals and a conditional passkey upgrade; the row holds only a scrypt hash",
        arguments: Backend.available)
    func signUp(_ backend: Backend) async throws {
        try await withServer(backend) { server in
            let app = server.app()
            let reply = try await app.passwordRegister("alice", alicePassword, displayName: "Alice")
            #expect(reply.status == .created, "\(reply)")
            let session = try await app.adopt(reply)
            #expect(session.user.name == "alice")
            #expect(session.user.displayName == "Alice")
            let upgrade = try #require(session.passkeyUpgrade)
            #expect(!upgrade.ticket.isEmpty)
            #expect(session.signals?.allAcceptedCredentialIds == [])
            #expect(session.signals?.rpId == "localhost")

            let me: UserProfile = try await app.send(.get, APIPaths.Native.me).decode()
            #expect(me.signInMethods == SignInMethods(passkeys: 0, password: true, apple: false))

            // The stored value is the self-describing hash, never the password.
            let user = try #require(try await server.store.user(named: "alice"))
            let hash = try #require(try await server.store.passwordHash(ofUser: user.id))
            #expect(hash.hasPrefix("$scrypt$ln=10,r=8,p=1$"))
            #expect(!hash.contains(alicePassword))
            #expect(!hash.contains(Base64URL.encode(Array(alicePassword.utf8))))
        }
    }

    @Test("Sign-up refusals: 400 with a code, nothing written", arguments: Backend.available)
    func signUpRefusals(_ backend: Backend) async throws {
        try await withServer(backend) { server in
            let app = server.app()
            let cases: [(String, String, String)] = [
                ("bob", String(repeating: "x", count: 14), "password.tooShort"),
                ("bob", String(repeating: "x", count: 129), "password.tooLong"),
                ("averyverylongname", "averyverylongname", "password.tooCommon"),  // the user name itself
                ("", alicePassword, "user.invalidName"),
            ]
            for (name, password, code) in cases {
                let reply = try await app.passwordRegister(name, password)
                #expect(reply.status == .badRequest, "\(reply)")
                #expect(reply.errorCode == code)
                if !name.isEmpty { #expect(try await server.store.user(named: name) == nil) }
            }
            // 128 code points is the longest accepted; 15 four-byte emoji count as 15.
            #expect(try await app.passwordRegister("long", String(repeating: "y", count: 128)).status == .created)
            #expect(try await app.passwordRegister("emoji", String(repeating: "🔑", count: 15)).status == .created)
            let malformed = try await app.send(.post, APIPaths.Native.passwordRegister, text: #"{"username":"carol"}"#)
            #expect(malformed.status == .badRequest)
            #expect(try await server.store.user(named: "carol") == nil)

            #expect(try await app.passwordRegister("alice", alicePassword).status == .created)
            let taken = try await app.passwordRegister("ALICE", alicePassword + "!")
            #expect(taken.status == .conflict)
            #expect(taken.errorCode == "user.nameTaken")
        }
    }

    @Test("Passwords are NFKC-normalised before counting and hashing", arguments: Backend.available)
    func normalisation(_ backend: Backend) async throws {
        try await withServer(backend) { server async throws in
            let app = server.app()
            // Full-width letters and digits are their ASCII forms under NFKC.
            #expect(try await app.passwordRegister("alice", "ｐａｓｓ ｐｈｒａｓｅ ２０２６").status == .created)
            #expect(try await app.passwordSignIn("alice", "pass phrase 2026").status == .ok)
            // 15 decomposed "é" are 30 code points as typed but 15 after normalisation: accepted …
            let decomposed = String(repeating: "e\u{301}", count: 15)
            #expect(try await app.passwordRegister("bob", decomposed).status == .created)
            #expect(try await app.passwordSignIn("bob", String(repeating: "\u{e9}", count: 15)).status == .ok)
            // … while 14 of them are 14: too short.
            #expect(
                try await app.passwordRegister("carol", String(repeating: "e\u{301}", count: 14)).errorCode
                    == "password.tooShort")
        }
    }

    @Test(
        "Sign-in: a session; wrong password and unknown user get the same answer after the same work",
        arguments: Backend.available)
    func signIn(_ backend: Backend) async throws {
        try await withServer(
            backend, configure: { $0.passwordHashing = ScryptParameters(logN: 13, blockSize: 8, parallelization: 1) }
        ) { server in
            let app = server.app()
            #expect(try await app.passwordRegister("alice", alicePassword).status == .created)
            let ok = try await app.passwordSignIn("Alice", alicePassword)
            #expect(ok.status == .ok, "\(ok)")
            let session = try await server.app().adopt(ok)
            #expect(session.passkeyUpgrade != nil)
            #expect(session.user.name == "alice")

            var wrong: [Reply] = []
            var unknown: [Reply] = []
            for round in 0..<2 {
                wrong.append(try await app.passwordSignIn("alice", "not the password \(round)"))
                unknown.append(try await app.passwordSignIn("nobody", "not the password \(round)"))
            }
            for reply in wrong + unknown {
                #expect(reply.status == .unauthorized)
                #expect(reply.errorCode == "password.invalid")
            }
            #expect(wrong[0].text == unknown[0].text)
            #expect(wrong[0].headers[.contentType] == unknown[0].headers[.contentType])
            // Both run one scrypt (the unknown name against a dummy hash): PasswordServiceTests counts the derivations,
            // and PasswordTimingTests (run alone) times them.
            // A passkey-only account has no password: the same answer again.
            #expect(
                try await NativeClient(http: server.app()).signUp("bob", with: VirtualAuthenticator()).status
                    == .created)
            let passkeyOnly = try await app.passwordSignIn("bob", alicePassword)
            #expect(passkeyOnly.text == unknown[0].text)
        }
    }

    @Test(
        "Throttling: after 5 failures in a row, 429 with Retry-After for known and unknown names alike",
        arguments: Backend.available)
    func throttling(_ backend: Backend) async throws {
        try await withServer(backend) { server in
            let app = server.app()
            #expect(try await app.passwordRegister("alice", alicePassword).status == .created)
            for name in ["alice", "nobody"] {
                for _ in 0..<5 {
                    #expect(try await app.passwordSignIn(name, "wrong password").errorCode == "password.invalid")
                }
                // Even the right password is refused now, without being checked.
                let throttled = try await app.passwordSignIn(name, alicePassword)
                #expect(throttled.status == .tooManyRequests, "\(throttled)")
                #expect(throttled.errorCode == "password.throttled")
                let retryAfter = try #require(throttled.headers[.retryAfter].flatMap { Int($0) })
                #expect((1...30).contains(retryAfter))
            }
            let row = try #require(try await server.store.passwordThrottle(key: PasswordService.throttleKey("alice")))
            #expect(row.failures == 5)
            #expect(!row.key.contains("alice"), "the attempted name is not kept in clear")
            #expect(PasswordService.throttleKey("ALICE") == row.key)
            // A long (valid, 256-character, 768-byte) name is throttled like any other: 401, not a store error.
            let long = String(repeating: "名", count: 256)
            #expect(try await app.passwordSignIn(long, "wrong password").errorCode == "password.invalid")
            // Another name is not affected.
            #expect(try await app.passwordRegister("bob", alicePassword).status == .created)
            #expect(try await app.passwordSignIn("bob", alicePassword).status == .ok)
        }
    }

    /// The review's race: 16 wrong passwords at once all got 401 (a serial client gets 5) and locked the owner out for
    /// an hour. Attempts are now taken before the hash: the burst gets the serial budget, and the owner waits the first
    /// delay (30 s), which grows only while guessing goes on.
    @Test(
        "A parallel burst of 16 wrong passwords gets the serial budget of 5 guesses, and the owner waits 30 s, not an hour",
        arguments: Backend.available)
    func parallelBurst(_ backend: Backend) async throws {
        try await withServer(backend) { server in
            let app = server.app()
            #expect(try await app.passwordRegister("alice", alicePassword).status == .created)
            let codes = try await withThrowingTaskGroup(of: String?.self) { group in
                for _ in 0..<16 {
                    group.addTask { try await app.passwordSignIn("alice", "wrong password").errorCode }
                }
                return try await group.reduce(into: [String?]()) { $0.append($1) }
            }
            #expect(codes.filter { $0 == "password.invalid" }.count == 5, "\(codes)")
            #expect(codes.filter { $0 == "password.throttled" }.count == 11, "\(codes)")
            let owner = try await app.passwordSignIn("alice", alicePassword)
            #expect(owner.errorCode == "password.throttled")
            let retryAfter = try #require(owner.headers[.retryAfter].flatMap { Int($0) })
            #expect((1...30).contains(retryAfter))
        }
    }

    @Test("Throttling backs off: the delay doubles to its maximum, and a retry inside it is refused")
    func backoff() async throws {
        let policy = PasswordThrottlePolicy(freeFailures: 2, baseDelay: .seconds(1), maximumDelay: .seconds(4))
        #expect(policy.delay(afterFailures: 1) == 0)
        #expect(policy.delay(afterFailures: 2) == 1)
        #expect(policy.delay(afterFailures: 3) == 2)
        #expect(policy.delay(afterFailures: 4) == 4)
        #expect(policy.delay(afterFailures: 40) == 4)

        try await withServer(
            .sqlite,
            configure: {
                // Long enough that the immediate retry is inside it on any machine; its end and the success that clears
                // the count are checked on a set clock (PasswordServiceTests.throttleExpires).
                $0.passwordThrottle = PasswordThrottlePolicy(
                    freeFailures: 1, baseDelay: .seconds(600), maximumDelay: .seconds(600))
            }
        ) { server throws in
            let app = server.app()
            #expect(try await app.passwordRegister("alice", alicePassword).status == .created)
            #expect(try await app.passwordSignIn("alice", "wrong password").errorCode == "password.invalid")
            #expect(try await app.passwordSignIn("alice", alicePassword).errorCode == "password.throttled")
        }
    }

    @Test("The throttle is shared by every instance on one database", arguments: Backend.available)
    func throttleAcrossInstances(_ backend: Backend) async throws {
        try await TestDatabase.with(backend) { database in
            try await withServer(on: database) { serverA async throws in
                try await withServer(on: database) { serverB async throws in
                    let onA = serverA.app()
                    let onB = serverB.app()
                    #expect(try await onA.passwordRegister("alice", alicePassword).status == .created)
                    for attempt in 0..<5 {
                        let instance = attempt.isMultiple(of: 2) ? onA : onB
                        #expect(
                            try await instance.passwordSignIn("alice", "wrong password").errorCode == "password.invalid"
                        )
                    }
                    #expect(try await onB.passwordSignIn("alice", alicePassword).errorCode == "password.throttled")
                    #expect(try await onA.passwordSignIn("alice", alicePassword).errorCode == "password.throttled")
                }
            }
        }
    }

    @Test("A hash made with other parameters is replaced at the next successful sign-in", arguments: Backend.available)
    func rehash(_ backend: Backend) async throws {
        try await TestDatabase.with(backend) { database in
            try await withServer(on: database) { old async throws in
                #expect(try await old.app().passwordRegister("alice", alicePassword).status == .created)
            }
            try await withServer(
                on: database,
                configure: { $0.passwordHashing = ScryptParameters(logN: 11, blockSize: 8, parallelization: 1) }
            ) { new in
                let user = try #require(try await new.store.user(named: "alice"))
                let before = try #require(try await new.store.passwordHash(ofUser: user.id))
                #expect(before.hasPrefix("$scrypt$ln=10,"))
                // A failed sign-in changes nothing.
                #expect(try await new.app().passwordSignIn("alice", "wrong password").status == .unauthorized)
                #expect(try await new.store.passwordHash(ofUser: user.id) == before)
                #expect(try await new.app().passwordSignIn("alice", alicePassword).status == .ok)
                let after = try #require(try await new.store.passwordHash(ofUser: user.id))
                #expect(after.hasPrefix("$scrypt$ln=11,r=8,p=1$"))
                #expect(try await new.app().passwordSignIn("alice", alicePassword).status == .ok)
                #expect(try await new.store.passwordHash(ofUser: user.id) == after)
            }
        }
    }

    @Test("PUT /v1/password sets and changes the password", arguments: Backend.available)
    func setAndChange(_ backend: Backend) async throws {
        try await withServer(backend) { server in
            #expect(
                try await server.app().send(
                    .put, APIPaths.Native.password, json: SetPasswordRequest(newPassword: alicePassword)
                ).errorCode == "session.required")

            // A password account changes its password: the current one is required and checked.
            let app = server.app()
            _ = try await app.adopt(try await app.passwordRegister("alice", alicePassword))
            let missing = try await app.send(
                .put, APIPaths.Native.password, json: SetPasswordRequest(newPassword: "a new long passphrase"))
            #expect(missing.status == .badRequest)
            #expect(missing.errorCode == "password.currentRequired")
            let wrong = try await app.send(
                .put, APIPaths.Native.password,
                json: SetPasswordRequest(currentPassword: "wrong password", newPassword: "a new long passphrase"))
            #expect(wrong.status == .unauthorized)
            #expect(wrong.errorCode == "password.invalid")
            let short = try await app.send(
                .put, APIPaths.Native.password,
                json: SetPasswordRequest(currentPassword: alicePassword, newPassword: "only12chars!"))
            #expect(short.errorCode == "password.tooShort")  // still the only way in: 15
            let changed = try await app.send(
                .put, APIPaths.Native.password,
                json: SetPasswordRequest(currentPassword: alicePassword, newPassword: "a new long passphrase"))
            #expect(changed.status == .noContent, "\(changed)")
            #expect(try await server.app().passwordSignIn("alice", alicePassword).status == .unauthorized)
            #expect(try await server.app().passwordSignIn("alice", "a new long passphrase").status == .ok)

            // A passkey account sets a first password: 8 characters suffice beside a passkey, common ones are refused.
            let passkeys = NativeClient(http: server.app())
            _ = try await passkeys.http.adopt(try await passkeys.signUp("bob", with: VirtualAuthenticator()))
            let common = try await passkeys.http.send(
                .put, APIPaths.Native.password, json: SetPasswordRequest(newPassword: "football"))
            #expect(common.errorCode == "password.tooCommon")
            #expect(
                try await passkeys.http.send(
                    .put, APIPaths.Native.password, json: SetPasswordRequest(newPassword: "seven77")
                ).errorCode == "password.tooShort")
            let user = try #require(try await server.store.user(named: "bob"))
            #expect(try await server.store.passwordHash(ofUser: user.id) == nil)
            #expect(
                try await passkeys.http.send(
                    .put, APIPaths.Native.password, json: SetPasswordRequest(newPassword: "gr8 tapir")
                ).status == .noContent)
            #expect(try await server.app().passwordSignIn("bob", "gr8 tapir").status == .ok)
            let me: UserProfile = try await passkeys.http.send(.get, APIPaths.Native.me).decode()
            #expect(me.signInMethods == SignInMethods(passkeys: 1, password: true, apple: false))
        }
    }

    @Test(
        "The upgrade ceremony is conditional (UP may be clear); DELETE /v1/password needs another way in",
        arguments: Backend.available)
    func upgradeAndRemove(_ backend: Backend) async throws {
        try await withServer(backend) { server in
            let app = server.app()
            let session = try await app.adopt(try await app.passwordRegister("alice", alicePassword))
            let lastWay = try await app.send(.delete, APIPaths.Native.password)
            #expect(lastWay.status == .conflict)
            #expect(lastWay.errorCode == "password.lastWayIn")
            let user = try #require(try await server.store.user(named: "alice"))
            #expect(try await server.store.passwordHash(ofUser: user.id) != nil)

            // The conditional create: the browser makes the passkey without a gesture, so UP is clear.
            let authenticator = VirtualAuthenticator()
            let upgrade = try #require(session.passkeyUpgrade)
            let created = try await authenticator.register(
                options: upgrade.options, origin: ServerHarness.origin, tampering: Tampering(clearUserPresence: true))
            let verified = try await app.send(
                .post, APIPaths.Native.addPasskeyVerify,
                json: RegistrationVerifyRequest(ticket: upgrade.ticket, credential: created))
            #expect(verified.status == .created, "\(verified)")

            // A normal add-passkey ceremony still requires UP.
            let second = VirtualAuthenticator()
            let options: RegistrationOptionsResponse = try await app.send(
                .post, APIPaths.Native.addPasskeyOptions, json: AddPasskeyOptionsRequest()
            ).decode()
            let noPresence = try await second.register(
                options: options.options, origin: ServerHarness.origin, tampering: Tampering(clearUserPresence: true))
            let refused = try await app.send(
                .post, APIPaths.Native.addPasskeyVerify,
                json: RegistrationVerifyRequest(ticket: options.ticket, credential: noPresence))
            #expect(refused.status == .badRequest)
            #expect(refused.errorCode == "userPresenceRequired")
            // … unless it asks for conditional mediation.
            let conditional: RegistrationOptionsResponse = try await app.send(
                .post, APIPaths.Native.addPasskeyOptions, json: AddPasskeyOptionsRequest(mediation: "conditional")
            ).decode()
            let third = try await second.register(
                options: conditional.options, origin: ServerHarness.origin,
                tampering: Tampering(clearUserPresence: true))
            #expect(
                try await app.send(
                    .post, APIPaths.Native.addPasskeyVerify,
                    json: RegistrationVerifyRequest(ticket: conditional.ticket, credential: third)
                ).status == .created)
            #expect(
                try await app.send(
                    .post, APIPaths.Native.addPasskeyOptions, json: AddPasskeyOptionsRequest(mediation: "silent")
                ).errorCode == "passkey.invalidMediation")

            // With passkeys, the password can go; the account is passkey-only.
            #expect(try await app.send(.delete, APIPaths.Native.password).status == .noContent)
            #expect(try await server.store.passwordHash(ofUser: user.id) == nil)
            let me: UserProfile = try await app.send(.get, APIPaths.Native.me).decode()
            #expect(me.signInMethods == SignInMethods(passkeys: 2, password: false, apple: false))
            #expect(try await app.send(.delete, APIPaths.Native.password).errorCode == "password.notSet")
            #expect(try await server.app().passwordSignIn("alice", alicePassword).errorCode == "password.invalid")
            #expect(try await NativeClient(http: server.app()).signIn("alice", with: authenticator).status == .ok)
            // A passkey sign-in of a passkey account offers no upgrade.
            let passkeySession: SessionResponse = try await NativeClient(http: server.app()).signIn(with: authenticator)
                .decode()
            #expect(passkeySession.passkeyUpgrade == nil)
            #expect(passkeySession.signals?.allAcceptedCredentialIds.count == 2)
        }
    }

    @Test(
        "A password counts as a way in: the last passkey of an account with a password can go",
        arguments: Backend.available)
    func lastPasskeyBesidePassword(_ backend: Backend) async throws {
        try await withServer(backend) { server in
            let client = NativeClient(http: server.app())
            _ = try await client.http.adopt(try await client.signUp("bob", with: VirtualAuthenticator()))
            let list: PasskeyList = try await client.http.send(.get, APIPaths.Native.passkeys).decode()
            let id = try #require(list.passkeys.first?.id)
            #expect(
                try await client.http.send(.delete, APIPaths.Native.passkey(id: id)).errorCode
                    == "passkey.lastCredential")
            #expect(
                try await client.http.send(
                    .put, APIPaths.Native.password, json: SetPasswordRequest(newPassword: "gr8 tapir")
                ).status == .noContent)
            let removed = try await client.http.send(.delete, APIPaths.Native.passkey(id: id))
            #expect(removed.status == .ok, "\(removed)")
            #expect(try removed.decode(PasskeyRemoval.self).signals?.allAcceptedCredentialIds == [])
        }
    }

    @Test("--password-sign-in off: every password route answers 404 password.disabled", arguments: Backend.available)
    func disabled(_ backend: Backend) async throws {
        var settings = ServerSettings.test
        settings.passwordSignIn = false
        try await withServer(backend, settings: settings) { server in
            let client = NativeClient(http: server.app())
            _ = try await client.http.adopt(try await client.signUp("bob", with: VirtualAuthenticator()))
            let replies = [
                try await client.http.passwordRegister("alice", alicePassword),
                try await client.http.passwordSignIn("bob", alicePassword),
                try await client.http.send(
                    .put, APIPaths.Native.password, json: SetPasswordRequest(newPassword: alicePassword)),
                try await client.http.send(.delete, APIPaths.Native.password),
            ]
            for reply in replies {
                #expect(reply.status == .notFound, "\(reply)")
                #expect(reply.errorCode == "password.disabled")
            }
            #expect(try await server.store.user(named: "alice") == nil)
        }
    }

    @Test("The password never reaches the log, even at trace level")
    func notLogged() async throws {
        let capture = LogCapture()
        var logger = Logger(label: "latchkey.server.test") { _ in capture }
        logger.logLevel = .trace
        try await withServer(.sqlite, logger: logger) { server async throws in
            let app = server.app()
            #expect(try await app.passwordRegister("alice", alicePassword).status == .created)
            #expect(try await app.passwordSignIn("alice", "wrong password 1").status == .unauthorized)
            #expect(try await app.passwordSignIn("alice", alicePassword).status == .ok)
        }
        let text = capture.text
        #expect(!text.isEmpty)
        #expect(!text.contains("horse"))
        #expect(!text.contains("wrong password"))
    }
}

/// Collects every log line (message and metadata) of a logger.
final class LogCapture: LogHandler, @unchecked Sendable {
    private let lock = NSLock()
    private var lines: [String] = []
    var metadata: Logger.Metadata = [:]
    var logLevel: Logger.Level = .trace

    subscript(metadataKey key: String) -> Logger.Metadata.Value? {
        get { metadata[key] }
        set { metadata[key] = newValue }
    }

    func log(event: LogEvent) {
        lock.withLock { lines.append("\(event.level) \(event.message) \(event.metadata ?? [:]) \(metadata)") }
    }

    var text: String { lock.withLock { lines.joined(separator: "\n") } }
}
