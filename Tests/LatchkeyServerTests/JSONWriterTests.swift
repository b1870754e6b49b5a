import Foundation
import LatchkeyAPI
import Testing
import WebAuthn

@testable import LatchkeyServer

/// ``JSONWriter`` writes the sign-in answers byte for byte as `APIJSON.makeEncoder()` encodes them, so clients and
/// the OpenAPI document see no change: compared on fixed and random values, with every optional member present and
/// absent and text that needs escaping.
@Suite("JSON answers written without JSONEncoder: the encoder's bytes")
struct JSONWriterTests {
    static let encoder = APIJSON.makeEncoder()

    /// Text that exercises escaping: quotes, backslashes, every control character, slashes, non-ASCII, emoji.
    static let texts: [String] = [
        "", "alice", "Alice \"A\" O'Brien", "back\\slash", "a/b</script>", "tab\there\nnew\rline",
        String((0..<0x20).map { Character(Unicode.Scalar($0)) }) + "\u{7F}", "Zoë 李 🙂", "\u{2028}\u{2029}", "\u{FEFF}x",
    ]

    static func randomText(_ generator: inout some RandomNumberGenerator) -> String {
        let scalars = (0..<Int.random(in: 0...12, using: &generator)).compactMap { _ in
            Unicode.Scalar(UInt32.random(in: 0...0x2FF, using: &generator))
        }
        return String(String.UnicodeScalarView(scalars))
    }

    static func randomBytes(_ generator: inout some RandomNumberGenerator) -> [UInt8] {
        (0..<Int.random(in: 1...64, using: &generator)).map { _ in UInt8.random(in: 0...255, using: &generator) }
    }

    static func sessionResponses() -> [SessionResponse] {
        var generator = SystemRandomNumberGenerator()
        var responses: [SessionResponse] = []
        for index in 0..<400 {
            let text = index < texts.count ? texts[index] : randomText(&generator)
            let expiresAt = Date(timeIntervalSince1970: Double.random(in: 0...4_000_000_000, using: &generator))
            let signals =
                index % 3 == 0
                ? nil
                : CredentialSignals(
                    rpId: "example.com", userId: Base64URL.encode(randomBytes(&generator)),
                    allAcceptedCredentialIds: (0..<index % 4).map { _ in Base64URL.encode(randomBytes(&generator)) },
                    name: text, displayName: randomText(&generator)
                )
            let methods = index % 5 == 0 ? SignInMethods(passkeys: index, password: index % 2 == 0, apple: true) : nil
            let upgrade =
                index % 7 == 0
                ? RegistrationOptionsResponse(
                    ticket: "t-\(index)",
                    options: PublicKeyCredentialCreationOptions(
                        rp: .init(id: "example.com", name: text),
                        user: .init(id: randomBytes(&generator), name: text, displayName: text),
                        challenge: randomBytes(&generator),
                        pubKeyCredParams: [PublicKeyCredentialParameters(alg: .es256)]
                    )) : nil
            responses.append(
                SessionResponse(
                    session: .init(token: Base64URL.encode(randomBytes(&generator)), expiresAt: expiresAt),
                    user: UserProfile(
                        id: UUID().uuidString.lowercased(), name: text, displayName: randomText(&generator),
                        signInMethods: methods),
                    signals: signals, passkeyUpgrade: upgrade,
                    accessToken: index % 4 == 1
                        ? AccessTokenResponse(
                            accessToken: "eyJ.\(text).sig", expiresAt: expiresAt, refreshToken: "r-\(index)") : nil
                ))
        }
        return responses
    }

    static func requestOptions() -> [AuthenticationOptionsResponse] {
        var generator = SystemRandomNumberGenerator()
        var responses: [AuthenticationOptionsResponse] = []
        for index in 0..<400 {
            let allow: [PublicKeyCredentialDescriptor]? =
                index % 3 == 0
                ? nil
                : (0..<index % 5).map { position in
                    PublicKeyCredentialDescriptor(
                        id: randomBytes(&generator),
                        transports: position % 2 == 0
                            ? nil : [.internal, .hybrid, AuthenticatorTransport(rawValue: texts[index % texts.count])]
                    )
                }
            let extensions: [String: JSONValue]? =
                index % 4 == 0
                ? [
                    "appid": .string("https://example.com/\(index)"), "largeBlob": .object(["read": .bool(true)]),
                    "z": .number(1.5),
                ] : nil
            responses.append(
                AuthenticationOptionsResponse(
                    ticket: Base64URL.encode(randomBytes(&generator)),
                    options: PublicKeyCredentialRequestOptions(
                        challenge: randomBytes(&generator), timeout: index % 2 == 0 ? 60_000 + index : nil,
                        rpId: index % 6 == 0 ? nil : texts[index % texts.count], allowCredentials: allow,
                        userVerification: index % 3 == 1 ? nil : [.preferred, .required, .discouraged][index % 3],
                        hints: index % 5 == 0
                            ? [
                                .securityKey, .clientDevice,
                                PublicKeyCredentialHint(rawValue: texts[index % texts.count]),
                            ] : nil,
                        extensions: extensions
                    )))
        }
        return responses
    }

    @Test func sessionAnswersAreTheEncodersBytes() throws {
        for response in Self.sessionResponses() {
            let written = String(decoding: try response.jsonBytes(), as: UTF8.self)
            let encoded = String(decoding: try Self.encoder.encode(response), as: UTF8.self)
            #expect(written == encoded)
        }
    }

    @Test func signInOptionsAreTheEncodersBytes() throws {
        for response in Self.requestOptions() {
            let written = String(decoding: try response.jsonBytes(), as: UTF8.self)
            let encoded = String(decoding: try Self.encoder.encode(response), as: UTF8.self)
            #expect(written == encoded)
        }
    }

    @Test("the conformance profile's sign-in options and status answers are the encoder's bytes")
    func conformanceAnswersAreTheEncodersBytes() throws {
        for response in Self.requestOptions() {
            var answer = ServerRequestOptionsResponse(options: response.options)
            let written = String(decoding: try answer.jsonBytes(), as: UTF8.self)
            #expect(written == String(decoding: try Self.encoder.encode(answer), as: UTF8.self))
            answer.errorMessage = response.ticket
            #expect(try answer.jsonBytes() == Array(try Self.encoder.encode(answer)))
        }
        for text in Self.texts {
            for status in [ServerStatus.ok, .failed] {
                for answer in [
                    ServerResponse(status: status, errorMessage: text),
                    ServerResponse(status: status, errorMessage: text, errorCode: text),
                ] {
                    #expect(try answer.jsonBytes() == Array(try Self.encoder.encode(answer)), "\(answer)")
                }
            }
        }
        #expect(
            String(decoding: try ServerResponse.ok.jsonBytes(), as: UTF8.self) == #"{"errorMessage":"","status":"ok"}"#)
    }

    @Test func theWrittenAnswersDecode() throws {
        let decoder = APIJSON.makeDecoder()
        for response in Self.requestOptions().prefix(50) {
            #expect(
                try decoder.decode(AuthenticationOptionsResponse.self, from: Data(try response.jsonBytes())) == response
            )
        }
        for response in Self.sessionResponses().prefix(50) {
            let decoded = try decoder.decode(SessionResponse.self, from: Data(try response.jsonBytes()))
            #expect(
                decoded.user == response.user && decoded.signals == response.signals
                    && decoded.session.token == response.session.token)
        }
    }

    static func pendingSignIns() -> [PendingAuthentication] {
        var generator = SystemRandomNumberGenerator()
        return (0..<300).map { index in
            PendingAuthentication(
                challenge: randomBytes(&generator),
                allowedCredentialIDs: (0..<index % 4).map { _ in randomBytes(&generator) },
                userVerification: index < texts.count
                    ? UserVerificationRequirement(rawValue: texts[index]) : [.preferred, .required][index % 2],
                userHandle: index % 3 == 0 ? nil : randomBytes(&generator),
                mediation: index % 4 == 0
                    ? nil
                    : (index < texts.count ? CredentialMediationRequirement(rawValue: texts[index]) : .conditional)
            )
        }
    }

    /// A sign-in's pending state, the ceremony payload: written as the encoder writes it, and read back by the one-pass
    /// reader from that and from a plain `JSONEncoder`'s (unsorted) output of earlier versions.
    @Test func pendingSignInsAreTheEncodersBytesAndReadBack() throws {
        let plain = JSONEncoder()
        for pending in Self.pendingSignIns() {
            let written = try pending.jsonBytes()
            #expect(
                String(decoding: written, as: UTF8.self)
                    == String(decoding: try Self.encoder.encode(pending), as: UTF8.self))
            #expect(PendingAuthentication(storedJSON: written) == pending)
            #expect(PendingAuthentication(storedJSON: Array(try plain.encode(pending))) == pending)
        }
    }

    /// Stored JSON of another form is left to `JSONDecoder` (nil here), which then decodes or refuses it.
    @Test func anUnusualPendingSignInIsLeftToTheDecoder() throws {
        let id = Base64URL.encode([1, 2, 3])
        for text in [
            #"{"challenge":"\#(id)","allowedCredentialIDs":[],"userVerification":7}"#,
            #"{"challenge":"\#(id)","allowedCredentialIDs":[1],"userVerification":"required"}"#,
            #"{"challenge":"not base64url!","allowedCredentialIDs":[],"userVerification":"required"}"#,
            #"{"challenge":"\#(id)","allowedCredentialIDs":[],"userVerification":"required","userHandle":{}}"#,
            #"{"challenge":"\#(id)","userVerification":"required"}"#,
            #"["challenge"]"#,
        ] {
            #expect(PendingAuthentication(storedJSON: Array(text.utf8)) == nil, "\(text)")
        }
        let withNulls =
            #"{"challenge":"\#(id)","allowedCredentialIDs":[],"userVerification":"required","userHandle":null,"mediation":null,"later":{"a":[1]}}"#
        let decoded = try JSONDecoder().decode(PendingAuthentication.self, from: Data(withNulls.utf8))
        #expect(PendingAuthentication(storedJSON: Array(withNulls.utf8)) == decoded)
    }
}
