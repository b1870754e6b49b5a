import Foundation
import LatchkeyClient
import Testing
import VirtualAuthenticator
import VirtualAuthenticatorClient
import WebAuthn

@Suite("PasskeyBridge")
struct PasskeyBridgeTests {
    static let origin = "https://example.com"
    let relyingParty = RelyingParty(id: "example.com", name: "Example", origins: [Self.origin])
    let user = UserEntity(id: Array("alice-handle".utf8), name: "alice", displayName: "Alice")

    func bridge(
        _ configuration: VirtualAuthenticatorConfiguration = .passkeyProvider,
        store: any CredentialStore = InMemoryCredentialStore(), choice: CredentialChoice = .mostRecent
    ) -> PasskeyBridge {
        let authenticator = VirtualAuthenticator(configuration: configuration, store: store)
        return PasskeyBridge(
            authenticator: VirtualAuthenticatorAdapter(authenticator, origin: Self.origin, choice: choice))
    }

    func json(_ value: some Encodable) throws -> String {
        String(decoding: try JSONEncoder().encode(value), as: UTF8.self)
    }

    // MARK: Success envelopes

    @Test("registration: ok envelope whose data the relying party verifies, transports at the top")
    func registrationSucceeds() async throws {
        let options = relyingParty.beginRegistration(user: user, residentKey: .required)
        let reply = await bridge().register(optionsJSON: try json(options))
        let envelope = try Envelope(reply)
        #expect(envelope.ok)
        let data = try #require(envelope.data)
        #expect(data["type"] as? String == "public-key")
        #expect(data["transports"] as? [String] == ["internal", "hybrid"])
        #expect(data["id"] as? String == data["rawId"] as? String)
        let credential = try RegistrationCredential.parse(JSONSerialization.data(withJSONObject: data))
        let verified = try await relyingParty.finishRegistration(credential, expectedChallenge: options.challenge.bytes)
        #expect(verified.credentialID == credential.rawId.bytes)
    }

    @Test("authentication: ok envelope whose data the relying party verifies")
    func authenticationSucceeds() async throws {
        let bridge = bridge()
        let creation = relyingParty.beginRegistration(user: user, residentKey: .required)
        let registered = try Envelope(await bridge.register(optionsJSON: try json(creation)))
        let credential = try RegistrationCredential.parse(
            JSONSerialization.data(withJSONObject: try #require(registered.data)))
        let verified = try await relyingParty.finishRegistration(
            credential, expectedChallenge: creation.challenge.bytes)

        let request = relyingParty.beginAuthentication()
        let envelope = try Envelope(await bridge.authenticate(optionsJSON: try json(request)))
        #expect(envelope.ok)
        let assertion = try AuthenticationCredential.parse(
            JSONSerialization.data(withJSONObject: try #require(envelope.data)))
        let record = CredentialRecord(
            id: verified.credentialID, publicKey: verified.publicKey, signCount: verified.signCount,
            userHandle: user.id.bytes, backupEligible: verified.backupEligible
        )
        let result = try relyingParty.finishAuthentication(
            assertion, expectedChallenge: request.challenge.bytes, credential: record)
        #expect(result.credentialID == verified.credentialID)
        #expect(assertion.response.userHandle?.bytes == user.id.bytes)
    }

    @Test(
        "padded and standard base64 challenges and user IDs, and the {publicKey: …} wrapper, are accepted",
        arguments: [Base64Form.paddedStandard, .unpaddedStandard, .paddedURL])
    func acceptsOtherBase64Forms(form: Base64Form) async throws {
        // 0xfb 0xff… gives '+' and '/' in standard base64; 32 bytes need one '=' of padding.
        let challenge: [UInt8] = [0xfb, 0xff, 0xbf] + Array(repeating: 0xfe, count: 29)
        let userID: [UInt8] = [0xff, 0xef, 0xfe, 0x01, 0x02]
        let options = """
            {"publicKey":{"rp":{"id":"example.com","name":"Example"},
             "user":{"id":"\(form.encode(userID))","name":"alice","displayName":"Alice"},
             "challenge":"\(form.encode(challenge))","pubKeyCredParams":[{"type":"public-key","alg":-7}],
             "authenticatorSelection":{"residentKey":"required"}}}
            """
        let bridge = bridge()
        let envelope = try Envelope(await bridge.register(optionsJSON: options))
        #expect(envelope.ok)
        let credential = try RegistrationCredential.parse(
            JSONSerialization.data(withJSONObject: try #require(envelope.data)))
        _ = try await relyingParty.finishRegistration(credential, expectedChallenge: challenge)

        let request = #"{"challenge":"\#(form.encode(challenge))","rpId":"example.com"}"#
        let assertion = try Envelope(await bridge.authenticate(optionsJSON: request))
        #expect(assertion.ok)
        let response = try #require(assertion.data?["response"] as? [String: Any])
        #expect(Base64URL.decode(try #require(response["userHandle"] as? String)) == userID)
    }

    // MARK: Error codes

    @Test("invalidOptions: not JSON, missing fields, undecodable base64, RP ID foreign to the origin")
    func invalidOptions() async throws {
        let bridge = bridge()
        for options in ["not json", "{}", #"{"challenge":"***","rpId":"example.com"}"#, "[1,2]"] {
            let envelope = try Envelope(await bridge.authenticate(optionsJSON: options))
            #expect(envelope.failure == "invalidOptions", "\(options)")
        }
        var foreign = relyingParty.beginRegistration(user: user)
        foreign.rp.id = "other.org"
        #expect(try Envelope(await bridge.register(optionsJSON: try json(foreign))).failure == "invalidOptions")
    }

    @Test("excludedCredential: the authenticator already holds an excluded credential")
    func excludedCredential() async throws {
        let store = InMemoryCredentialStore()
        let bridge = bridge(store: store)
        let first = try Envelope(
            await bridge.register(optionsJSON: try json(relyingParty.beginRegistration(user: user))))
        let id = try #require(first.data?["rawId"] as? String)
        let again = relyingParty.beginRegistration(
            user: user, excludeCredentials: [PublicKeyCredentialDescriptor(id: try #require(Base64URL.decode(id)))]
        )
        #expect(try Envelope(await bridge.register(optionsJSON: try json(again))).failure == "excludedCredential")
        #expect(await store.all.count == 1)
    }

    @Test("noCredentials: nothing stored for the RP, or none of allowCredentials")
    func noCredentials() async throws {
        let bridge = bridge()
        #expect(
            try Envelope(await bridge.authenticate(optionsJSON: try json(relyingParty.beginAuthentication()))).failure
                == "noCredentials")
        let named = relyingParty.beginAuthentication(allowCredentials: [PublicKeyCredentialDescriptor(id: [1, 2, 3])])
        #expect(try Envelope(await bridge.authenticate(optionsJSON: try json(named))).failure == "noCredentials")
    }

    @Test("cancelled: the account chooser picks nothing")
    func cancelled() async throws {
        let store = InMemoryCredentialStore()
        _ = await bridge(store: store).register(
            optionsJSON: try json(relyingParty.beginRegistration(user: user, residentKey: .required)))
        let chooser = bridge(store: store, choice: .ask { _ in nil })
        #expect(
            try Envelope(await chooser.authenticate(optionsJSON: try json(relyingParty.beginAuthentication()))).failure
                == "cancelled")
    }

    @Test("notAllowed: user verification required from an authenticator without it")
    func notAllowed() async throws {
        let noUV = VirtualAuthenticatorConfiguration(supportsUserVerification: false)
        let options = relyingParty.beginRegistration(user: user, userVerification: .required)
        #expect(try Envelope(await bridge(noUV).register(optionsJSON: try json(options))).failure == "notAllowed")
    }

    @Test("unsupported: no requested algorithm is one the authenticator has")
    func unsupported() async throws {
        let es256Only = VirtualAuthenticatorConfiguration(algorithms: [.es256])
        var options = relyingParty.beginRegistration(user: user)
        options.pubKeyCredParams = [PublicKeyCredentialParameters(alg: .rs256)]
        #expect(try Envelope(await bridge(es256Only).register(optionsJSON: try json(options))).failure == "unsupported")
    }

    @Test("failed: the authenticator's credential store breaks, and the message says so")
    func failed() async throws {
        let envelope = try Envelope(
            await bridge(store: BrokenStore()).register(
                optionsJSON: try json(relyingParty.beginRegistration(user: user))))
        #expect(envelope.failure == "failed")
        #expect(envelope.message?.contains("disk on fire") == true)
    }
}

/// The base64 spellings hybrid apps' servers send.
enum Base64Form: Sendable, CustomStringConvertible {
    case paddedStandard, unpaddedStandard, paddedURL

    func encode(_ bytes: [UInt8]) -> String {
        let standard = Data(bytes).base64EncodedString()
        switch self {
        case .paddedStandard: return standard
        case .unpaddedStandard: return standard.replacingOccurrences(of: "=", with: "")
        case .paddedURL:
            return standard.replacingOccurrences(of: "+", with: "-").replacingOccurrences(of: "/", with: "_")
        }
    }

    var description: String {
        switch self {
        case .paddedStandard: "padded standard base64"
        case .unpaddedStandard: "unpadded standard base64"
        case .paddedURL: "padded base64url"
        }
    }
}

/// A bridge reply, read with JSONSerialization as the web side would.
struct Envelope {
    let object: [String: Any]

    init(_ reply: String) throws {
        object = try #require(try JSONSerialization.jsonObject(with: Data(reply.utf8)) as? [String: Any])
    }

    var ok: Bool { object["ok"] as? Bool == true }
    var data: [String: Any]? { object["data"] as? [String: Any] }
    /// The code of a failure envelope (nil for success, or a failure without `errMsg`).
    var failure: String? {
        guard object["ok"] as? Bool == false, object["errMsg"] is String else { return nil }
        return object["code"] as? String
    }
    var message: String? { object["errMsg"] as? String }
}

/// A credential store whose every call fails.
struct BrokenStore: CredentialStore {
    struct Failure: Error, CustomStringConvertible { var description: String { "disk on fire" } }
    func save(_ credential: CredentialSource) async throws { throw Failure() }
    func credential(id: [UInt8]) async throws -> CredentialSource? { throw Failure() }
    func credentials(rpID: String) async throws -> [CredentialSource] { throw Failure() }
    func delete(id: [UInt8]) async throws { throw Failure() }
}
