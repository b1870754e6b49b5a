import Foundation
import Testing
import VirtualAuthenticator
import WebAuthn

/// Registrations and assertions from ``VirtualAuthenticator`` verified by py_webauthn (Duo Labs), a relying
/// party library no one here wrote.
@Suite("Interop: py_webauthn verifies VirtualAuthenticator", InteropPython.required)
struct PyWebAuthnInteropTests {
    static let origin = "https://interop.example"
    static let rpID = "interop.example"

    struct Case: Sendable, CustomStringConvertible {
        var algorithm: COSEAlgorithm
        var attestation: Attestation
        var description: String { "\(algorithm.name), \(attestation)" }
    }

    enum Attestation: String, Sendable { case none, packedSelf, packed, fidoU2F }

    static let cases: [Case] =
        // py_webauthn has no ES384 (-35).
        [COSEAlgorithm.es256, .es512, .rs256, .ps256, .edDSA].map { Case(algorithm: $0, attestation: .packedSelf) }
        + [
            Case(algorithm: .es256, attestation: .none), Case(algorithm: .es256, attestation: .packed),
            Case(algorithm: .es256, attestation: .fidoU2F),
        ]

    struct Scenario: Encodable {
        struct Step<Credential: Encodable>: Encodable {
            let credential: Credential
            let challenge: String
        }
        let rpId: String
        let origin: String
        let registration: Step<RegistrationCredential>
        let authentication: Step<AuthenticationCredential>
    }

    struct Verdict: Decodable {
        struct Registration: Decodable {
            let credentialId: String
            let format: String
        }
        struct Authentication: Decodable {
            let credentialId: String
            let newSignCount: Int
        }
        let ok: Bool
        let error: String?
        let registration: Registration?
        let authentication: Authentication?
    }

    @Test("registration and assertion verify", arguments: cases)
    func verifies(_ testCase: Case) async throws {
        let mode: AttestationMode =
            switch testCase.attestation {
            case .none: .none
            case .packedSelf: .packedSelf
            case .packed: .packed(try AttestationCA.makeRoot())
            case .fidoU2F: .fidoU2F(try AttestationCA.makeRoot())
            }
        let authenticator = VirtualAuthenticator(configuration: VirtualAuthenticatorConfiguration(attestation: mode))
        let user = UserEntity(id: Array("interop-user".utf8), name: "interop", displayName: "Interop")
        let creation = PublicKeyCredentialCreationOptions(
            rp: RelyingPartyEntity(id: Self.rpID, name: "Interop"), user: user,
            challenge: RelyingParty.generateChallenge(),
            pubKeyCredParams: [PublicKeyCredentialParameters(alg: testCase.algorithm)],
            authenticatorSelection: AuthenticatorSelectionCriteria(residentKey: .required), attestation: .direct
        )
        let registration = try await authenticator.register(options: creation, origin: Self.origin)
        let request = PublicKeyCredentialRequestOptions(challenge: RelyingParty.generateChallenge(), rpId: Self.rpID)
        let assertion = try await authenticator.authenticate(options: request, origin: Self.origin)

        let scenario = Scenario(
            rpId: Self.rpID, origin: Self.origin,
            registration: .init(credential: registration, challenge: creation.challenge.base64URL),
            authentication: .init(credential: assertion, challenge: request.challenge.base64URL)
        )
        let output = try await InteropPython.run("py_webauthn_verify.py", input: JSONEncoder().encode(scenario))
        let verdict = try JSONDecoder().decode(Verdict.self, from: output)
        #expect(verdict.ok, "\(verdict.error ?? "")")
        #expect(verdict.registration?.credentialId == registration.id)
        #expect(
            verdict.registration?.format
                == (testCase.attestation == .none ? "none" : testCase.attestation == .fidoU2F ? "fido-u2f" : "packed"))
        #expect(verdict.authentication?.credentialId == registration.id)
        #expect(verdict.authentication?.newSignCount == 1)
    }

    @Test("a tampered signature is rejected by py_webauthn too")
    func tamperedSignatureFails() async throws {
        let authenticator = VirtualAuthenticator()
        let user = UserEntity(id: [1], name: "x", displayName: "X")
        let creation = PublicKeyCredentialCreationOptions(
            rp: RelyingPartyEntity(id: Self.rpID, name: "Interop"), user: user,
            challenge: RelyingParty.generateChallenge(),
            pubKeyCredParams: [PublicKeyCredentialParameters(alg: .es256)],
            authenticatorSelection: AuthenticatorSelectionCriteria(residentKey: .required)
        )
        let registration = try await authenticator.register(options: creation, origin: Self.origin)
        let request = PublicKeyCredentialRequestOptions(challenge: RelyingParty.generateChallenge(), rpId: Self.rpID)
        var assertion = try await authenticator.authenticate(options: request, origin: Self.origin)
        assertion.response.signature.bytes[8] ^= 0x01
        let scenario = Scenario(
            rpId: Self.rpID, origin: Self.origin,
            registration: .init(credential: registration, challenge: creation.challenge.base64URL),
            authentication: .init(credential: assertion, challenge: request.challenge.base64URL)
        )
        let verdict = try JSONDecoder().decode(
            Verdict.self, from: await InteropPython.run("py_webauthn_verify.py", input: JSONEncoder().encode(scenario)))
        #expect(!verdict.ok)
    }
}
