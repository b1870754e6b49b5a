import Testing
import WebAuthn

/// Refusals name what is wrong in our words; a crypto library's own error (its type, its codes) never reaches a
/// client (issue 14, finding 9).
@Suite("Error messages without library internals")
struct ErrorMessageTests {
    @Test func aPublicKeyOffTheCurveIsRefusedInOurWords() throws {
        // x = y = 1 is not a point on P-256.
        let key = COSEKey(
            algorithm: .es256,
            parameters: .ec2(
                curve: COSEKey.Curve.p256, x: [UInt8](repeating: 1, count: 32), y: [UInt8](repeating: 1, count: 32)))
        do {
            _ = try SignatureVerifier(coseKey: key)
            Issue.record("a point off the curve was accepted")
        } catch {
            #expect(error.code == .publicKeyMalformed)
            #expect(error.message == "the ES256 public key is not valid", "\(error.message)")
        }
    }
}
