import Foundation
import Testing

@testable import LatchkeyStore

/// The Sign in with Apple part of the store (``AppleLinkStore``), against each backend.
@Suite("Apple links in the store")
struct AppleLinkStoreTests {
    private static func newLink(
        _ subject: String = "001.\(UUID().uuidString)", of userID: UUID, sealed: Data? = Make.bytes(60)
    ) -> StoredAppleLink {
        StoredAppleLink(
            subject: subject, userID: userID, clientID: "dev.latchkey.app", sealedRefreshToken: sealed,
            email: "x@privaterelay.appleid.com", isPrivateEmail: true, createdAt: Make.now)
    }

    @Test(arguments: Backend.available)
    func signUpCommitsUserLinkAndSessionTogether(_ backend: Backend) async throws {
        try await withStore(backend) { store in
            let user = Make.user()
            let link = Self.newLink(of: user.id)
            let session = Make.session(of: user.id)
            try await store.commitAppleLink(link, creating: user, session: session)
            #expect(try await store.user(id: user.id) == user)
            #expect(try await store.appleLink(subject: link.subject) == link)
            #expect(try await store.appleLinks(ofUser: user.id) == [link])
            #expect(try await store.session(tokenHash: session.tokenHash, now: Make.now) == session)

            // The same subject again, for a new user: conflict, and neither the user nor the session is written.
            let other = Make.user()
            let otherSession = Make.session(of: other.id)
            await expectStoreError(.conflict) {
                try await store.commitAppleLink(
                    Self.newLink(link.subject, of: other.id), creating: other, session: otherSession)
            }
            #expect(try await store.user(id: other.id) == nil)
            #expect(try await store.session(tokenHash: otherSession.tokenHash, now: Make.now) == nil)

            // A new user who is not the link's, likewise.
            await expectStoreError(.invalidRecord) {
                try await store.commitAppleLink(Self.newLink(of: user.id), creating: other, session: nil)
            }
            // A session for someone else is refused before anything is written.
            await expectStoreError(.invalidRecord) {
                try await store.commitAppleLink(Self.newLink(of: other.id), creating: other, session: session)
            }
            #expect(try await store.user(id: other.id) == nil)
        }
    }

    @Test(arguments: Backend.available)
    func linkingToAMissingUserIsNotFound(_ backend: Backend) async throws {
        try await withStore(backend) { store in
            let link = Self.newLink(of: UUID())
            await expectStoreError(.notFound) { try await store.commitAppleLink(link, creating: nil, session: nil) }
            let written = try await store.appleLink(subject: link.subject)
            #expect(written == nil)
        }
    }

    @Test(arguments: Backend.available)
    func returningSignInReplacesTheTokenAndAddsASession(_ backend: Backend) async throws {
        try await withStore(backend) { store in
            let user = try await store.createUser(named: "apple-returning")
            let first = Self.newLink(of: user.id)
            try await store.commitAppleLink(first, creating: nil, session: nil)

            let newToken = Make.bytes(61)
            let session = Make.session(of: user.id)
            let updated = try await store.recordAppleSignIn(
                subject: first.subject, sealedRefreshToken: newToken,
                clientID: "dev.latchkey.web", session: session)
            #expect(updated.sealedRefreshToken == newToken)
            #expect(updated.clientID == "dev.latchkey.web")
            #expect(updated.email == first.email, "the first sign-in's email is kept")
            #expect(try await store.session(tokenHash: session.tokenHash, now: Make.now) == session)

            let kept = try await store.recordAppleSignIn(
                subject: first.subject, sealedRefreshToken: nil,
                clientID: "ignored", session: Make.session(of: user.id))
            #expect(kept.sealedRefreshToken == newToken && kept.clientID == "dev.latchkey.web")

            let stranger = try await store.createUser(named: "apple-stranger")
            let foreign = Make.session(of: stranger.id)
            await expectStoreError(.invalidRecord) {
                _ = try await store.recordAppleSignIn(
                    subject: first.subject, sealedRefreshToken: Make.bytes(5), clientID: "x", session: foreign)
            }
            #expect(
                try await store.appleLink(subject: first.subject)?.sealedRefreshToken == newToken,
                "a failed sign-in changes nothing")
            await expectStoreError(.notFound) {
                _ = try await store.recordAppleSignIn(
                    subject: "unknown", sealedRefreshToken: nil, clientID: "x", session: Make.session(of: user.id))
            }
        }
    }

    @Test(arguments: Backend.available)
    func endingALinkEndsSessionsAndDeletesAnAppleOnlyUser(_ backend: Backend) async throws {
        try await withStore(backend) { store in
            // An Apple-only user: ending with deletion removes the user.
            let appleOnly = Make.user()
            let onlyLink = Self.newLink(of: appleOnly.id)
            try await store.commitAppleLink(onlyLink, creating: appleOnly, session: Make.session(of: appleOnly.id))
            let ended = try #require(
                try await store.endAppleLink(subject: onlyLink.subject, deletingUserWithoutOtherWayIn: true))
            #expect(ended.endedSessions == 1 && ended.deletedUser)
            #expect(try await store.user(id: appleOnly.id) == nil)
            #expect(
                try await store.endAppleLink(subject: onlyLink.subject, deletingUserWithoutOtherWayIn: true) == nil,
                "idempotent")

            // A user with a passkey keeps the account.
            let mixed = try await store.createUser(named: "mixed")
            try await store.addCredential(Make.credential(of: mixed.id))
            let mixedLink = Self.newLink(of: mixed.id)
            try await store.commitAppleLink(mixedLink, creating: nil, session: Make.session(of: mixed.id))
            let kept = try #require(
                try await store.endAppleLink(subject: mixedLink.subject, deletingUserWithoutOtherWayIn: true))
            #expect(!kept.deletedUser && kept.endedSessions == 1)
            #expect(try await store.user(id: mixed.id) == mixed)
            #expect(try await store.appleLinks(ofUser: mixed.id).isEmpty)

            // Without deletion (consent revoked) an Apple-only user stays.
            let revoked = Make.user()
            let revokedLink = Self.newLink(of: revoked.id)
            try await store.commitAppleLink(revokedLink, creating: revoked, session: nil)
            #expect(
                try await store.endAppleLink(subject: revokedLink.subject, deletingUserWithoutOtherWayIn: false)?
                    .deletedUser == false)
            #expect(try await store.user(id: revoked.id) == revoked)
        }
    }

    @Test(arguments: Backend.available)
    func emailStateNotificationIdsAndDeleteUser(_ backend: Backend) async throws {
        try await withStore(backend) { store in
            let user = try await store.createUser(named: "mail")
            let link = Self.newLink(of: user.id)
            try await store.commitAppleLink(link, creating: nil, session: nil)
            #expect(try await store.setAppleEmailEnabled(subject: link.subject, enabled: false))
            #expect(try await store.appleLink(subject: link.subject)?.emailEnabled == false)
            #expect(try await store.setAppleEmailEnabled(subject: "nobody", enabled: false) == false)

            #expect(try await store.appleNotificationSeen(id: "jti-1") == false)
            #expect(try await store.recordAppleNotification(id: "jti-1", expiresAt: Make.now.addingTimeInterval(60)))
            #expect(
                try await store.recordAppleNotification(id: "jti-1", expiresAt: Make.now.addingTimeInterval(60))
                    == false)
            #expect(try await store.appleNotificationSeen(id: "jti-1"))

            try await store.deleteUser(id: user.id)
            #expect(try await store.appleLink(subject: link.subject) == nil, "deleting the user removes the link")
        }
    }

    @Test(arguments: Backend.available)
    func webStatesAreSingleUseAndExpire(_ backend: Backend) async throws {
        try await withStore(backend) { store in
            let user = try await store.createUser(named: "web")
            let live = StoredAppleWebState(
                state: "state_live", rawNonce: "nonce-1", userID: user.id, createdAt: Make.now,
                expiresAt: Make.now.addingTimeInterval(300))
            try await store.insertAppleWebState(live)
            await expectStoreError(.conflict) { try await store.insertAppleWebState(live) }
            #expect(try await store.consumeAppleWebState("state_live", now: Make.now) == live)
            await expectStoreError(.notFound) { _ = try await store.consumeAppleWebState("state_live", now: Make.now) }

            let old = StoredAppleWebState(
                state: "state_old", rawNonce: "n", createdAt: Make.now, expiresAt: Make.now.addingTimeInterval(1))
            try await store.insertAppleWebState(old)
            await expectStoreError(.expired) {
                _ = try await store.consumeAppleWebState("state_old", now: Make.now.addingTimeInterval(2))
            }
            await expectStoreError(.notFound) { _ = try await store.consumeAppleWebState("state_old", now: Make.now) }
            await expectStoreError(.invalidRecord) {
                try await store.insertAppleWebState(
                    StoredAppleWebState(state: "no spaces", rawNonce: "n", expiresAt: Make.now))
            }

            try await store.insertAppleWebState(
                StoredAppleWebState(
                    state: "state_purge", rawNonce: "n", createdAt: Make.now,
                    expiresAt: Make.now.addingTimeInterval(1)))
            try await store.recordAppleNotification(id: "jti-old", expiresAt: Make.now.addingTimeInterval(1))
            #expect(try await store.purgeExpiredAppleRecords(now: Make.now.addingTimeInterval(2)) == 2)
            #expect(try await store.appleNotificationSeen(id: "jti-old") == false)
        }
    }

    @Test(arguments: Backend.available)
    func anIdentityTokenIsUsedOnceAndItsNonceConsumedWithIt(_ backend: Backend) async throws {
        try await withStore(backend) { store in
            let nonce = StoredAppleNonce(
                nonce: "nonce_live_0123456789", createdAt: Make.now, expiresAt: Make.now.addingTimeInterval(600))
            try await store.insertAppleNonce(nonce)
            await expectStoreError(.conflict) { try await store.insertAppleNonce(nonce) }
            await expectStoreError(.invalidRecord) {
                try await store.insertAppleNonce(StoredAppleNonce(nonce: "no spaces", expiresAt: Make.now))
            }
            let expiry = Make.now.addingTimeInterval(3600)

            // Of concurrent uses of one token exactly one records it.
            let results = await withTaskGroup(of: StoreError?.self) { group in
                for _ in 0..<5 {
                    group.addTask {
                        do {
                            try await store.recordAppleTokenUse(
                                subject: "001.a", nonceHash: "h1", expiresAt: expiry,
                                consumingNonce: nonce.nonce, now: Make.now)
                            return nil
                        } catch let error as StoreError {
                            return error
                        } catch {
                            return StoreError(.databaseError, "\(error)")
                        }
                    }
                }
                return await group.reduce(into: [StoreError?]()) { $0.append($1) }
            }
            #expect(results.filter { $0 == nil }.count == 1, "\(results)")
            #expect(results.compactMap { $0?.code }.allSatisfy { $0 == .conflict || $0 == .notFound }, "\(results)")

            // The same token again is a replay; the used nonce with another subject is unknown.
            await expectStoreError(.conflict) {
                try await store.recordAppleTokenUse(
                    subject: "001.a", nonceHash: "h1", expiresAt: expiry, consumingNonce: nil, now: Make.now)
            }
            await expectStoreError(.notFound) {
                try await store.recordAppleTokenUse(
                    subject: "001.b", nonceHash: "h1", expiresAt: expiry,
                    consumingNonce: nonce.nonce, now: Make.now)
            }
            // A refused use records nothing: 001.b with h1 is still free.
            try await store.recordAppleTokenUse(
                subject: "001.b", nonceHash: "h1", expiresAt: expiry, consumingNonce: nil, now: Make.now)

            // An expired nonce is refused and stays as it was (expired again, not unknown), recording nothing.
            let old = StoredAppleNonce(
                nonce: "nonce_old_0123456789", createdAt: Make.now, expiresAt: Make.now.addingTimeInterval(1))
            try await store.insertAppleNonce(old)
            for _ in 0..<2 {
                await expectStoreError(.expired) {
                    try await store.recordAppleTokenUse(
                        subject: "001.c", nonceHash: "h2", expiresAt: expiry,
                        consumingNonce: old.nonce, now: Make.now.addingTimeInterval(2))
                }
            }
            try await store.recordAppleTokenUse(
                subject: "001.c", nonceHash: "h2", expiresAt: Make.now.addingTimeInterval(1),
                consumingNonce: nil, now: Make.now)

            // Purged once expired: the old nonce and 001.c's use; 001.a's and 001.b's are kept until their expiry.
            #expect(try await store.purgeExpiredAppleRecords(now: Make.now.addingTimeInterval(2)) == 2)
            try await store.recordAppleTokenUse(
                subject: "001.c", nonceHash: "h2", expiresAt: expiry, consumingNonce: nil, now: Make.now)
            await expectStoreError(.conflict) {
                try await store.recordAppleTokenUse(
                    subject: "001.a", nonceHash: "h1", expiresAt: expiry, consumingNonce: nil, now: Make.now)
            }
        }
    }
}
