import AppleSignIn
import AppleStandIn
import Foundation
import Testing

@Suite("Identity token verification against the stand-in")
struct IdentityTokenTests {
    @Test func acceptsAValidTokenAndReadsEveryClaim() async throws {
        try await Harness.run { h in
            let token = try await h.identityToken { claims in claims["transfer_sub"] = .string("000999.old.team") }
            let identity = try await h.verifier.verify(token, rawNonce: "raw-nonce-1")
            #expect(identity.subject == "001234.abcdef.1234")
            #expect(identity.audience == Harness.bundleID.rawValue)
            #expect(identity.email == "abc@privaterelay.appleid.com")
            #expect(identity.emailVerified == true)
            #expect(identity.isPrivateEmail == true)
            #expect(identity.realUserStatus == .likelyReal)
            #expect(identity.transferSubject == "000999.old.team")
            #expect(identity.nonceSupported == true)
            #expect(identity.expiresAt > h.clock.now)
        }
    }

    @Test func readsEmailFlagsSentAsBooleans() async throws {
        try await Harness.run { h in
            let token = try await h.identityToken { claims in
                claims["email_verified"] = .bool(false)
                claims["is_private_email"] = .bool(false)
                claims["real_user_status"] = .int(0)
            }
            let identity = try await h.verifier.verify(token, rawNonce: "raw-nonce-1")
            #expect(identity.emailVerified == false)
            #expect(identity.isPrivateEmail == false)
            #expect(identity.realUserStatus == .unsupported)
        }
    }

    @Test func acceptsATokenForTheServicesID() async throws {
        try await Harness.run { h in
            let token = try await h.identityToken { $0["aud"] = .string(Harness.servicesID.rawValue) }
            #expect(try await h.verifier.verify(token, rawNonce: "raw-nonce-1").audience == Harness.servicesID.rawValue)
        }
    }

    @Test func acceptsExpiryAndIssueTimeWithinTheLeeway() async throws {
        try await Harness.run { h in
            let now = Int(h.clock.now.timeIntervalSince1970)
            let token = try await h.identityToken { claims in
                claims["exp"] = .int(now - 10)
                claims["iat"] = .int(now + 10)
            }
            _ = try await h.verifier.verify(token, rawNonce: "raw-nonce-1")
        }
    }

    @Test func rejectsAnExpiredToken() async throws {
        try await Harness.run { h in
            let token = try await h.identityToken()
            h.clock.advance(601 + 30)
            #expect(
                await errorCode { _ = try await h.verifier.verify(token, rawNonce: "raw-nonce-1") } == .tokenExpired)
        }
    }

    @Test func rejectsATokenIssuedInTheFuture() async throws {
        try await Harness.run { h in
            let now = Int(h.clock.now.timeIntervalSince1970)
            let token = try await h.identityToken { $0["iat"] = .int(now + 120) }
            #expect(
                await errorCode { _ = try await h.verifier.verify(token, rawNonce: "raw-nonce-1") } == .issuedInFuture)
        }
    }

    @Test(arguments: ["https://appleid.apple.com/", "https://evil.example", "http://appleid.apple.com"])
    func rejectsAWrongIssuer(issuer: String) async throws {
        try await Harness.run { h in
            let token = try await h.identityToken { $0["iss"] = .string(issuer) }
            #expect(
                await errorCode { _ = try await h.verifier.verify(token, rawNonce: "raw-nonce-1") } == .issuerMismatch)
        }
    }

    @Test func rejectsAWrongAudience() async throws {
        try await Harness.run { h in
            let token = try await h.identityToken { $0["aud"] = .string("com.other.app") }
            #expect(
                await errorCode { _ = try await h.verifier.verify(token, rawNonce: "raw-nonce-1") } == .audienceMismatch
            )
            let mixed = try await h.identityToken {
                $0["aud"] = .strings([Harness.bundleID.rawValue, "com.other.app"])
            }
            #expect(
                await errorCode { _ = try await h.verifier.verify(mixed, rawNonce: "raw-nonce-1") } == .audienceMismatch
            )
        }
    }

    @Test func rejectsAWrongNonce() async throws {
        try await Harness.run { h in
            let token = try await h.identityToken(rawNonce: "raw-nonce-1")
            #expect(
                await errorCode { _ = try await h.verifier.verify(token, rawNonce: "raw-nonce-2") } == .nonceMismatch)
            // The raw nonce itself in the claim (a client that forgot to hash) is not accepted either.
            let unhashed = try await h.identityToken { $0["nonce"] = .string("raw-nonce-1") }
            #expect(
                await errorCode { _ = try await h.verifier.verify(unhashed, rawNonce: "raw-nonce-1") } == .nonceMismatch
            )
        }
    }

    @Test func rejectsAMissingNonceWhenOneIsExpected() async throws {
        try await Harness.run { h in
            let token = try await h.identityToken(rawNonce: nil)
            #expect(
                await errorCode { _ = try await h.verifier.verify(token, rawNonce: "raw-nonce-1") } == .nonceMissing)
            // Without an expected nonce, the same token is fine.
            _ = try await h.verifier.verify(token, rawNonce: nil)
        }
    }

    @Test func rejectsAlgNone() async throws {
        try await Harness.run { h in
            let token = try await h.identityToken(signing: .unsigned)
            #expect(
                await errorCode { _ = try await h.verifier.verify(token, rawNonce: "raw-nonce-1") }
                    == .algorithmNotAllowed)
        }
    }

    @Test func rejectsHS256SignedWithThePublicKey() async throws {
        try await Harness.run { h in
            let token = try await h.identityToken(signing: .hmacWithPublicKey)
            #expect(
                await errorCode { _ = try await h.verifier.verify(token, rawNonce: "raw-nonce-1") }
                    == .algorithmNotAllowed)
        }
    }

    @Test(arguments: ["RS512", "PS256", "ES256", "rs256", "HS512"])
    func rejectsAnyOtherAlgorithm(algorithm: String) async throws {
        try await Harness.run { h in
            let token = try await h.identityToken(signing: .headerAlgorithm(algorithm))
            #expect(
                await errorCode { _ = try await h.verifier.verify(token, rawNonce: "raw-nonce-1") }
                    == .algorithmNotAllowed)
        }
    }

    @Test func rejectsAnUnknownKid() async throws {
        try await Harness.run { h in
            let token = try await h.identityToken(signing: .unknownKey)
            #expect(await errorCode { _ = try await h.verifier.verify(token, rawNonce: "raw-nonce-1") } == .unknownKey)
        }
    }

    @Test func rejectsASignatureByAnotherKeyUnderAKnownKid() async throws {
        try await Harness.run { h in
            let token = try await h.identityToken(signing: .wrongKey)
            #expect(
                await errorCode { _ = try await h.verifier.verify(token, rawNonce: "raw-nonce-1") } == .badSignature)
        }
    }

    @Test func rejectsATamperedPayload() async throws {
        try await Harness.run { h in
            let token = try await h.identityToken(signing: .tamperedPayload)
            #expect(
                await errorCode { _ = try await h.verifier.verify(token, rawNonce: "raw-nonce-1") } == .badSignature)
        }
    }

    @Test func rejectsMissingClaims() async throws {
        try await Harness.run { h in
            for claim in ["sub", "exp", "iat", "iss", "aud"] {
                let token = try await h.identityToken { $0[claim] = nil }
                #expect(
                    await errorCode { _ = try await h.verifier.verify(token, rawNonce: "raw-nonce-1") }
                        == .claimMissing, "\(claim)")
            }
        }
    }

    @Test(arguments: ["", "a.b", "a.b.c.d", "!!!.eyJ9.sig", "e30.e30.", "bm90IGpzb24.e30.AA"])
    func rejectsMalformedTokens(token: String) async throws {
        try await Harness.run { h in
            #expect(await errorCode { _ = try await h.verifier.verify(token, rawNonce: nil) } == .malformedToken)
        }
    }

    @Test func rejectsClaimsOfTheWrongType() async throws {
        try await Harness.run { h in
            let token = try await h.identityToken { $0["exp"] = .string("tomorrow") }
            #expect(
                await errorCode { _ = try await h.verifier.verify(token, rawNonce: "raw-nonce-1") } == .malformedToken)
            let flag = try await h.identityToken { $0["email_verified"] = .string("yes") }
            #expect(
                await errorCode { _ = try await h.verifier.verify(flag, rawNonce: "raw-nonce-1") } == .malformedToken)
        }
    }

    @Test func hashesTheNonceAsLowercaseSHA256Hex() {
        #expect(AppleNonce.hashed("abc") == "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad")
    }
}
