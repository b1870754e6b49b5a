import Foundation
import Synchronization
import Testing

@testable import LatchkeyServer

@Suite("Password hashing and rules")
struct PasswordHasherTests {
    @Test("The default parameters are OWASP's scrypt minimum; a real hash with them verifies")
    func owaspDefault() async throws {
        let configuration = try ServerConfiguration(ServerSettings())
        #expect(configuration.passwordHashing == ScryptParameters(logN: 17, blockSize: 8, parallelization: 1))
        #expect(configuration.passwordHashing.memoryByteCount == 128 << 20)
        #expect(configuration.passwordSignIn)
        let hasher = PasswordHasher(parameters: .owasp, concurrency: 1)
        let hash = try await hasher.hash("correct horse battery staple")
        #expect(hash.hasPrefix("$scrypt$ln=17,r=8,p=1$"))
        #expect(try await hasher.verify("correct horse battery staple", against: hash))
    }

    @Test("Self-describing hashes: verify, refuse, rehash, and never match a malformed one")
    func format() async throws {
        let hasher = PasswordHasher(parameters: testScrypt, concurrency: 2)
        let hash = try await hasher.hash("pässword")
        let parsed = try #require(PasswordHasher.parse(hash))
        #expect(parsed.parameters == testScrypt)
        #expect(parsed.salt.count == 16)
        #expect(parsed.hash.count == 32)
        #expect(try await hasher.verify("pässword", against: hash))
        #expect(try await !hasher.verify("passw0rd", against: hash))
        #expect(try await hasher.hash("pässword") != hash, "a fresh salt each time")
        #expect(!hasher.needsRehash(hash))
        #expect(
            PasswordHasher(parameters: ScryptParameters(logN: 11, blockSize: 8, parallelization: 1), concurrency: 1)
                .needsRehash(hash))
        // The dummy hash has the configured parameters and matches nothing.
        #expect(PasswordHasher.parse(hasher.dummyHash())?.parameters == testScrypt)
        #expect(try await !hasher.verify("", against: hasher.dummyHash()))

        let fields = hash.split(separator: "$").map(String.init)
        for malformed in [
            "", "plain", "$scrypt$ln=10,r=8$\(fields[2])$\(fields[3])",
            "$scrypt$ln=30,r=8,p=1$\(fields[2])$\(fields[3])",  // 128 GiB: refused, not run
            "$scrypt$ln=10,r=8,p=1,ln=11$\(fields[2])$\(fields[3])",
            "$bcrypt$ln=10,r=8,p=1$\(fields[2])$\(fields[3])",
            "$scrypt$ln=10,r=8,p=1$\(fields[2])$\(fields[3].dropLast(4))",
            "$scrypt$ln=10,r=8,p=1$!!$\(fields[3])",
        ] {
            #expect(PasswordHasher.parse(malformed) == nil, "\(malformed)")
            #expect(try await !hasher.verify("pässword", against: malformed))
            #expect(hasher.needsRehash(malformed))
        }
    }

    @Test("At most `concurrency` hashes run at once; the rest wait their turn")
    func bounded() async throws {
        let hasher = PasswordHasher(
            parameters: ScryptParameters(logN: 12, blockSize: 8, parallelization: 1), concurrency: 2)
        try await withThrowingTaskGroup(of: String.self) { group in
            for index in 0..<8 { group.addTask { try await hasher.hash("password number \(index)") } }
            var hashes = Set<String>()
            for try await hash in group { hashes.insert(hash) }
            #expect(hashes.count == 8)
        }
        #expect(hasher.gate.peakConcurrency == 2)
    }

    /// The review's finding: 12 abandoned sign-ins made the owner's wait 11.8 s. The queue is bounded (8 per slot;
    /// more are refused at once), and a waiter whose client has gone gives its turn away without hashing.
    @Test("The queue is bounded and a waiter no longer wanted is dropped without hashing")
    func queueBoundedAndAbandonedDropped() async throws {
        let gate = ConcurrencyGate(limit: 1, maxWaiting: 2)
        let (holding, hold) = AsyncStream.makeStream(of: Void.self)
        let (started, didStart) = AsyncStream.makeStream(of: Void.self)
        final class Flag: Sendable { let value = Mutex(true) }
        let wanted = Flag()
        try await withThrowingTaskGroup(of: String.self) { group in
            // One runs and holds the slot until told.
            group.addTask {
                try await gate.run {
                    didStart.yield()
                    for await _ in holding { break }
                    return "first"
                }
            }
            for await _ in started { break }
            // Two wait: one whose client leaves, one that stays.
            group.addTask {
                do {
                    return try await gate.run(while: { wanted.value.withLock { $0 } }) { "left" }
                } catch let refusal as PasswordHasher.Refusal {
                    return "\(refusal)"
                }
            }
            group.addTask { try await gate.run { "stayed" } }
            while gate.waitingCount < 2 { await Task.yield() }
            // A third waiter is one too many: refused at once.
            await #expect(throws: PasswordHasher.Refusal.busy) { try await gate.run { "refused" } }
            wanted.value.withLock { $0 = false }
            hold.yield()
            var results: [String] = []
            for try await result in group { results.append(result) }
            #expect(results.sorted() == ["abandoned", "first", "stayed"])
        }
        #expect(gate.admissionCount == 2, "the abandoned one never ran")
    }

    @Test("Rules: NFKC, code points, 15 / 8 / 128, the blocklist")
    func rules() throws {
        #expect(PasswordRules.common.count == 5000)
        #expect(PasswordRules.common.contains("password"))
        #expect(PasswordRules.normalized("ｆｕｌｌ　ｗｉｄｔｈ") == "full width")
        #expect(PasswordRules.length(typed: "e\u{301}") == 1, "a decomposed accent counts once")
        // The review's finding 6: one character that NFKC makes 18 code points is one character.
        #expect(PasswordRules.normalized("\u{FDFA}").unicodeScalars.count == 18)
        #expect(PasswordRules.length(typed: "\u{FDFA}") == 1)

        func code(_ password: String, onlyWayIn: Bool) -> String? {
            do {
                try PasswordRules.check(typed: password, username: "alice", isOnlyWayIn: onlyWayIn)
                return nil
            } catch let error as ServiceError {
                return error.code.rawValue
            } catch {
                return "other"
            }
        }
        #expect(code("fourteen chars", onlyWayIn: true) == "password.tooShort")
        #expect(code("fifteen chars!!", onlyWayIn: true) == nil)
        #expect(code("fourteen chars", onlyWayIn: false) == nil)
        #expect(code("seven77", onlyWayIn: false) == "password.tooShort")
        #expect(code(String(repeating: "a", count: 128), onlyWayIn: true) == nil)
        #expect(code(String(repeating: "a", count: 129), onlyWayIn: true) == "password.tooLong")
        #expect(code("Baseball", onlyWayIn: false) == "password.tooCommon")
        #expect(code("ＢＡＳＥＢＡＬＬ", onlyWayIn: false) == "password.tooCommon")  // NFKC then case-folded
        #expect(code("no composition rules at all", onlyWayIn: true) == nil)
        #expect(code("\u{FDFA}", onlyWayIn: true) == "password.tooShort")
        #expect(code("\u{FDFA}", onlyWayIn: false) == "password.tooShort")
    }

    @Test("--password-sign-in: flag, LATCHKEY_PASSWORD_SIGN_IN and the config key")
    func configuration() throws {
        #expect(
            try ServerConfiguration(ServerSettings(environment: ["LATCHKEY_PASSWORD_SIGN_IN": "off"])).passwordSignIn
                == false)
        #expect(
            try ServerConfiguration(ServerSettings(environment: ["LATCHKEY_PASSWORD_SIGN_IN": "on"])).passwordSignIn)
        #expect(throws: ConfigurationError.self) {
            try ServerSettings(environment: ["LATCHKEY_PASSWORD_SIGN_IN": "maybe"])
        }
        let file = FileManager.default.temporaryDirectory.appendingPathComponent("latchkey-\(UUID()).json")
        try Data(#"{"passwordSignIn": false}"#.utf8).write(to: file)
        defer { try? FileManager.default.removeItem(at: file) }
        #expect(try ServerConfiguration(ServerSettings(configFile: file.path)).passwordSignIn == false)
    }
}
