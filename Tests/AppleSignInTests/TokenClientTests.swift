import AppleSignIn
import AppleStandIn
import Crypto
import Foundation
import Testing

@Suite("Token endpoint client against the stand-in: exchange, refresh, revoke")
struct TokenClientTests {
    @Test func exchangesAnAppCodeForTokensWithAVerifiableIdentityToken() async throws {
        try await Harness.run { h in
            let code = await h.standIn.issueCode(
                for: .app(Harness.bundleID), subject: "001.app.user", rawNonce: "n-app",
                email: "u@example.com")
            let response = try await h.tokens.exchange(AppAuthorizationCode(code: code, bundleID: Harness.bundleID))
            #expect(response.refreshToken != nil)
            #expect(response.tokenType == "Bearer")
            let idToken = try #require(response.idToken)
            let identity = try await h.verifier.verify(idToken, rawNonce: "n-app")
            #expect(identity.subject == "001.app.user")
            #expect(identity.audience == Harness.bundleID.rawValue)
            #expect(identity.email == "u@example.com")
            #expect(!response.description.contains(idToken))
        }
    }

    @Test func exchangesAWebCodeWithItsRedirectURI() async throws {
        try await Harness.run { h in
            let code = await h.standIn.issueCode(
                for: .web(Harness.servicesID), subject: "001.web.user",
                redirectURI: Harness.redirectURI)
            let response = try await h.tokens.exchange(
                WebAuthorizationCode(
                    code: code, servicesID: Harness.servicesID,
                    redirectURI: Harness.redirectURI))
            let identity = try await h.verifier.verify(try #require(response.idToken), rawNonce: nil)
            #expect(identity.audience == Harness.servicesID.rawValue)
        }
    }

    @Test func aWebCodeWithTheWrongRedirectURIIsInvalidGrant() async throws {
        try await Harness.run { h in
            let code = await h.standIn.issueCode(
                for: .web(Harness.servicesID), subject: "s", redirectURI: Harness.redirectURI)
            let wrong = WebAuthorizationCode(
                code: code, servicesID: Harness.servicesID, redirectURI: "https://evil.example/cb")
            #expect(await errorCode { _ = try await h.tokens.exchange(wrong) } == .invalidGrant)
        }
    }

    @Test func descriptionsNeverShowCodesOrSecrets() throws {
        let app = AppAuthorizationCode(code: "c.secret-code", bundleID: Harness.bundleID)
        let web = WebAuthorizationCode(
            code: "c.secret-code", servicesID: Harness.servicesID, redirectURI: Harness.redirectURI)
        #expect(!app.description.contains("secret-code") && !web.description.contains("secret-code"))
        let key = P256.Signing.PrivateKey()
        let signer = AppleClientSecretSigner(teamID: Harness.teamID, keyID: Harness.keyID, privateKey: key)
        #expect(!String(describing: signer).contains(key.pemRepresentation))
    }

    @Test func aReusedCodeIsInvalidGrant() async throws {
        try await Harness.run { h in
            let code = AppAuthorizationCode(
                code: await h.standIn.issueCode(for: .app(Harness.bundleID), subject: "s"),
                bundleID: Harness.bundleID)
            _ = try await h.tokens.exchange(code)
            #expect(await errorCode { _ = try await h.tokens.exchange(code) } == .invalidGrant)
        }
    }

    @Test func anExpiredOrUnknownCodeIsInvalidGrant() async throws {
        try await Harness.run { h in
            let code = AppAuthorizationCode(
                code: await h.standIn.issueCode(for: .app(Harness.bundleID), subject: "s"),
                bundleID: Harness.bundleID)
            h.clock.advance(301)
            #expect(await errorCode { _ = try await h.tokens.exchange(code) } == .invalidGrant)
            let unknown = AppAuthorizationCode(code: "c.never-issued", bundleID: Harness.bundleID)
            #expect(await errorCode { _ = try await h.tokens.exchange(unknown) } == .invalidGrant)
        }
    }

    @Test func aWebCodeExchangedAsTheAppIsInvalidGrant() async throws {
        try await Harness.run { h in
            let code = await h.standIn.issueCode(
                for: .web(Harness.servicesID), subject: "s", redirectURI: Harness.redirectURI)
            #expect(
                await errorCode {
                    _ = try await h.tokens.exchange(AppAuthorizationCode(code: code, bundleID: Harness.bundleID))
                } == .invalidGrant)
        }
    }

    @Test func aSecretSignedByAnotherTeamKeyIsInvalidClient() async throws {
        try await Harness.run { h in
            let stranger = AppleClientSecretSigner(
                teamID: Harness.teamID, keyID: Harness.keyID, privateKey: P256.Signing.PrivateKey())
            let client = AppleTokenClient(
                endpoints: h.standIn.endpoints,
                secrets: AppleClientSecretCache(signer: stranger, now: h.clock.closure))
            let code = AppAuthorizationCode(
                code: await h.standIn.issueCode(for: .app(Harness.bundleID), subject: "s"),
                bundleID: Harness.bundleID)
            #expect(await errorCode { _ = try await client.exchange(code) } == .invalidClient)
        }
    }

    @Test func aSecretForAnotherTeamIsInvalidClient() async throws {
        try await Harness.run { h in
            let otherTeam = AppleClientSecretSigner(teamID: "OTHERTEAM1", keyID: Harness.keyID, privateKey: h.teamKey)
            let client = AppleTokenClient(
                endpoints: h.standIn.endpoints,
                secrets: AppleClientSecretCache(signer: otherTeam, now: h.clock.closure))
            #expect(
                await errorCode {
                    try await client.revoke("r.any", client: .app(Harness.bundleID))
                } == .invalidClient)
        }
    }

    @Test func anExpiredClientSecretIsInvalidClient() async throws {
        try await Harness.run { h in
            let signer = AppleClientSecretSigner(teamID: Harness.teamID, keyID: Harness.keyID, privateKey: h.teamKey)
            let clock = h.clock
            let yesterday = AppleClientSecretCache(
                signer: signer, lifetime: 3600, now: { clock.now.addingTimeInterval(-86_400) })
            let client = AppleTokenClient(endpoints: h.standIn.endpoints, secrets: yesterday)
            let code = AppAuthorizationCode(
                code: await h.standIn.issueCode(for: .app(Harness.bundleID), subject: "s"),
                bundleID: Harness.bundleID)
            #expect(await errorCode { _ = try await client.exchange(code) } == .invalidClient)
            // The code was not consumed by the rejected call.
            _ = try await h.tokens.exchange(code)
        }
    }

    @Test func anotherClientCannotUseOrRevokeARefreshToken() async throws {
        try await Harness.run { h in
            let code = AppAuthorizationCode(
                code: await h.standIn.issueCode(for: .app(Harness.bundleID), subject: "s"),
                bundleID: Harness.bundleID)
            let refreshToken = try #require(try await h.tokens.exchange(code).refreshToken)
            #expect(
                await errorCode {
                    _ = try await h.tokens.validate(refreshToken: refreshToken, client: .web(Harness.servicesID))
                } == .invalidGrant)
            try await h.tokens.revoke(refreshToken, client: .web(Harness.servicesID))
            _ = try await h.tokens.validate(refreshToken: refreshToken, client: .app(Harness.bundleID))
        }
    }

    @Test func validatesARefreshTokenUntilItIsRevoked() async throws {
        try await Harness.run { h in
            let code = AppAuthorizationCode(
                code: await h.standIn.issueCode(for: .app(Harness.bundleID), subject: "001.r"),
                bundleID: Harness.bundleID)
            let refreshToken = try #require(try await h.tokens.exchange(code).refreshToken)
            let refreshed = try await h.tokens.validate(refreshToken: refreshToken, client: .app(Harness.bundleID))
            #expect(refreshed.refreshToken == nil)
            #expect(try await h.verifier.verify(try #require(refreshed.idToken), rawNonce: nil).subject == "001.r")

            try await h.tokens.revoke(refreshToken, client: .app(Harness.bundleID))
            #expect(await h.standIn.revokedTokens == [refreshToken])
            #expect(
                await errorCode {
                    _ = try await h.tokens.validate(refreshToken: refreshToken, client: .app(Harness.bundleID))
                } == .invalidGrant)
        }
    }

    @Test func anUnreachableAppleIsUnreachable() async throws {
        let signer = AppleClientSecretSigner(
            teamID: Harness.teamID, keyID: Harness.keyID, privateKey: P256.Signing.PrivateKey())
        let client = AppleTokenClient(
            endpoints: AppleEndpoints(baseURL: "http://127.0.0.1:1"),
            secrets: AppleClientSecretCache(signer: signer))
        #expect(await errorCode { try await client.revoke("r.any", client: .web(Harness.servicesID)) } == .unreachable)
    }

    @Test(
        arguments: [
            ("invalid_request", AppleSignInError.Code.invalidRequest), ("unauthorized_client", .unauthorizedClient),
            ("unsupported_grant_type", .unsupportedGrantType), ("invalid_scope", .invalidScope),
            ("slow_down", .appleError),
        ] as [(String, AppleSignInError.Code)])
    func appleErrorBodiesMapToTheirCodes(error: String, expected: AppleSignInError.Code) async throws {
        try await Harness.run { h in
            await h.standIn.answerNextTokenRequest(
                status: 400, body: #"{"error":"\#(error)","error_description":"scripted"}"#)
            let code = await h.standIn.issueCode(for: .app(Harness.bundleID), subject: "001.scripted")
            #expect(
                await errorCode {
                    _ = try await h.tokens.exchange(AppAuthorizationCode(code: code, bundleID: Harness.bundleID))
                } == expected)
        }
    }

    @Test(arguments: [(500, ""), (503, "<html>busy</html>"), (400, #"{"message":"no error field"}"#)])
    func aFailureWithoutAnErrorBodyIsAnUnexpectedResponse(status: Int, body: String) async throws {
        try await Harness.run { h in
            await h.standIn.answerNextTokenRequest(status: status, body: body)
            let code = await h.standIn.issueCode(for: .app(Harness.bundleID), subject: "001.scripted")
            #expect(
                await errorCode {
                    _ = try await h.tokens.exchange(AppAuthorizationCode(code: code, bundleID: Harness.bundleID))
                } == .appleError)
            #expect(AppleSignInError.Code.appleError.rawValue == "apple.unexpectedResponse")
        }
    }
}
