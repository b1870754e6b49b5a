import Foundation
import Testing

@testable import LatchkeyStore

/// The access-token part of the store (``TokenStore``), against each backend.
@Suite("Tokens in the store")
struct TokenStoreTests {
    static func key(_ generation: Int) -> StoredSigningKey {
        StoredSigningKey(
            generation: generation, keyID: "k\(generation)",
            sealedPrivateKey: Data(repeating: UInt8(generation), count: 64),
            publicJWK: #"{"kty":"EC"}"#, createdAt: Make.now, signsFrom: Make.now.addingTimeInterval(Double(generation))
        )
    }

    @Test(arguments: Backend.available)
    func signingKeysByGeneration(_ backend: Backend) async throws {
        try await withStore(backend) { store in
            #expect(try await store.signingKeys().isEmpty)
            #expect(try await store.insertSigningKey(Self.key(2)))
            #expect(try await store.insertSigningKey(Self.key(1)))
            var taken = Self.key(2)
            taken.keyID = "other"
            #expect(try await !store.insertSigningKey(taken), "a generation is made once")
            #expect(try await store.signingKeys() == [Self.key(1), Self.key(2)])
            try await store.deleteSigningKeys(before: 2)
            #expect(try await store.signingKeys().map(\.generation) == [2])
        }
    }

    @Test(
        "a refresh token's generation is spent once; an earlier one ends the session; a later one is refused",
        arguments: Backend.available)
    func refreshGenerations(_ backend: Backend) async throws {
        try await withStore(backend) { store in
            let user = try await store.createUser(named: "ann")
            let session = Make.session(of: user.id)
            try await store.createSession(session)
            let hash = session.tokenHash
            #expect(try await store.spendRefreshToken(session: hash, generation: 1, now: Make.now) == .invalid)
            #expect(
                try await store.spendRefreshToken(session: hash, generation: 0, now: Make.now)
                    == .rotated(userID: user.id))
            #expect(
                try await store.spendRefreshToken(session: hash, generation: 1, now: Make.now)
                    == .rotated(userID: user.id))
            #expect(
                try await store.spendRefreshToken(session: Make.bytes(32), generation: 0, now: Make.now) == .invalid)
            #expect(try await store.session(tokenHash: hash, now: Make.now) != nil, "nothing refused changed anything")

            // Generation 0 again: someone else holds a copy; the session ends, and every generation with it.
            #expect(
                try await store.spendRefreshToken(session: hash, generation: 0, now: Make.now)
                    == .reused(userID: user.id))
            #expect(try await store.session(tokenHash: hash, now: Make.now) == nil)
            #expect(try await store.spendRefreshToken(session: hash, generation: 2, now: Make.now) == .invalid)
        }
    }

    @Test(
        "a refresh token dies with its session, and of concurrent spends one rotates and the next ends the session",
        arguments: Backend.available)
    func sessionEndsAndConcurrency(_ backend: Backend) async throws {
        try await withStore(backend) { store in
            let user = try await store.createUser(named: "bob")
            let session = Make.session(of: user.id)
            try await store.createSession(session)
            #expect(
                try await store.spendRefreshToken(session: session.tokenHash, generation: 0, now: session.expiresAt)
                    == .invalid, "the session has expired")
            #expect(
                try await store.spendRefreshToken(session: session.tokenHash, generation: 1, now: session.expiresAt)
                    == .invalid, "an expired session is not ended by a replay either")
            let outcomes = try await withThrowingTaskGroup(of: RefreshTokenSpending.self) { group in
                for _ in 0..<6 {
                    group.addTask {
                        try await store.spendRefreshToken(session: session.tokenHash, generation: 0, now: Make.now)
                    }
                }
                return try await group.reduce(into: []) { $0.append($1) }
            }
            #expect(outcomes.count { $0 == .rotated(userID: user.id) } == 1, "\(outcomes)")
            #expect(outcomes.count { $0 == .reused(userID: user.id) } == 1, "\(outcomes)")
            #expect(try await store.session(tokenHash: session.tokenHash, now: Make.now) == nil)

            let other = Make.session(of: user.id)
            try await store.createSession(other)
            try await store.deleteSession(tokenHash: other.tokenHash)
            #expect(
                try await store.spendRefreshToken(session: other.tokenHash, generation: 0, now: Make.now) == .invalid)
        }
    }
}
