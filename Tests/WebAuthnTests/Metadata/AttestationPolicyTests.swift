import Foundation
import Testing
import WebAuthn

/// The one place an untrusted attestation fails: `AttestationPolicy.check`, always with `attestation.untrusted`.
@Suite("Attestation policy")
struct AttestationPolicyTests {
    static let untrusted = TrustStatus.untrusted(reason: "the chain leads elsewhere")

    static func statement(_ format: String, _ trust: TrustStatus = untrusted) -> VerifiedAttestation {
        VerifiedAttestation(format: format, type: .basic, trust: trust)
    }

    func code(_ policy: AttestationPolicy, _ attestation: VerifiedAttestation) -> WebAuthnError.Code? {
        do throws(WebAuthnError) {
            try policy.check(attestation, metadata: nil, at: Date())
            return nil
        } catch {
            return error.code
        }
    }

    @Test("under any, an untrusted apple or android-safetynet path fails; other formats pass untrusted")
    func anchoredFormatsUnderAny() {
        #expect(code(.any, Self.statement("apple")) == .untrustedAttestation)
        #expect(code(.any, Self.statement("android-safetynet")) == .untrustedAttestation)
        #expect(code(.any, Self.statement("packed")) == nil)
        #expect(code(.any, Self.statement("tpm")) == nil)
        #expect(code(.any, Self.statement("none", .notApplicable)) == nil)
    }

    @Test("a compound attestation fails when an anchored sub-statement is untrusted, though another is trusted")
    func compoundSubstatement() throws {
        let packed = Self.statement("packed")
        let compound = VerifiedAttestation(
            format: "compound", type: .basic, trust: .notApplicable, components: [packed, Self.statement("apple")])
        #expect(code(.any, compound) == .untrustedAttestation)
        let allowed = VerifiedAttestation(format: "compound", type: .basic, components: [packed, packed])
        #expect(code(.any, allowed) == nil)
    }

    @Test("anchored formats are the policy's to choose: none, or every format")
    func chosenFormats() {
        #expect(code(AttestationPolicy(.any, anchoredFormats: []), Self.statement("apple")) == nil)
        #expect(
            code(AttestationPolicy(.any, anchoredFormats: ["packed"]), Self.statement("packed"))
                == .untrustedAttestation)
        #expect(AttestationTrust.empty.policy.anchoredFormats.isEmpty)
        #expect(AttestationTrust.builtIn.policy.anchoredFormats == ["apple", "android-safetynet"])
    }

    @Test("trusted and certified refuse every untrusted path with the same code")
    func requirements() {
        #expect(code(.trusted, Self.statement("packed")) == .untrustedAttestation)
        #expect(code(.trusted, Self.statement("none", .notApplicable)) == .untrustedAttestation)
        #expect(code(.certified, Self.statement("tpm")) == .untrustedAttestation)
    }
}
