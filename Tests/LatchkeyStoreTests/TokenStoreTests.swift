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

    @Test(arguments: Backend.available)
    func refreshTokensRotateOnceAndReuseEndsTheSession(_ backend: Backend) async throws {
        try await withStore(backend) { store in
            let user = try await store.createUser(named: "ann")
            let session = Make.session(of: user.id)
            try await store.createSession(session)
            let first = StoredRefreshToken(
                tokenHash: Make.bytes(32), family: Make.bytes(16), sessionTokenHash: session.tokenHash,
                userID: user.id, authenticationMethods: ["hwk", "user"], authenticatedAt: Make.now, createdAt: Make.now)
            try await store.insertRefreshToken(first)
            await expectStoreError(.notFound) {
                var orphan = first
                orphan.tokenHash = Make.bytes(32)
                orphan.sessionTokenHash = Make.bytes(32)
                try await store.insertRefreshToken(orphan)
            }

            let secondHash = Make.bytes(32)
            guard
                case .rotated(let second) = try await store.rotateRefreshToken(
                    presented: first.tokenHash, replacementHash: secondHash, now: Make.now)
            else {
                Issue.record("not rotated")
                return
            }
            #expect(second.tokenHash == secondHash && second.family == first.family)
            #expect(second.authenticationMethods == ["hwk", "user"] && second.userID == user.id)
            #expect(
                try await store.rotateRefreshToken(
                    presented: Make.bytes(32), replacementHash: Make.bytes(32), now: Make.now)
                    == .invalid)

            // The first token again: someone else holds a copy; the session ends, and the family with it.
            #expect(
                try await store.rotateRefreshToken(
                    presented: first.tokenHash, replacementHash: Make.bytes(32), now: Make.now)
                    == .reused(userID: user.id))
            #expect(try await store.session(tokenHash: session.tokenHash, now: Make.now) == nil)
            #expect(
                try await store.rotateRefreshToken(
                    presented: secondHash, replacementHash: Make.bytes(32), now: Make.now)
                    == .invalid)
        }
    }

    @Test("a refresh token dies with its session, and of concurrent uses one rotates", arguments: Backend.available)
    func sessionEndsAndConcurrency(_ backend: Backend) async throws {
        try await withStore(backend) { store in
            let user = try await store.createUser(named: "bob")
            let session = Make.session(of: user.id)
            try await store.createSession(session)
            let token = StoredRefreshToken(
                tokenHash: Make.bytes(32), family: Make.bytes(16), sessionTokenHash: session.tokenHash,
                userID: user.id, authenticationMethods: ["pwd"], authenticatedAt: Make.now, createdAt: Make.now)
            try await store.insertRefreshToken(token)
            #expect(
                try await store.rotateRefreshToken(
                    presented: token.tokenHash, replacementHash: Make.bytes(32), now: session.expiresAt) == .invalid,
                "the session has expired")
            let outcomes = try await withThrowingTaskGroup(of: StoredRefreshToken.Rotation.self) { group in
                for _ in 0..<6 {
                    group.addTask {
                        try await store.rotateRefreshToken(
                            presented: token.tokenHash, replacementHash: Make.bytes(32), now: Make.now)
                    }
                }
                return try await group.reduce(into: []) { $0.append($1) }
            }
            let rotated = outcomes.filter { if case .rotated = $0 { true } else { false } }
            #expect(rotated.count == 1, "\(outcomes)")

            let other = Make.session(of: user.id)
            try await store.createSession(other)
            var second = token
            second.tokenHash = Make.bytes(32)
            second.sessionTokenHash = other.tokenHash
            try await store.insertRefreshToken(second)
            try await store.deleteSession(tokenHash: other.tokenHash)
            #expect(
                try await store.rotateRefreshToken(
                    presented: second.tokenHash, replacementHash: Make.bytes(32), now: Make.now) == .invalid)
        }
    }
}
