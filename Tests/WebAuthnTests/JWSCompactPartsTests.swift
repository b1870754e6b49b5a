import Testing
import WebAuthn

/// The compact-JWS split both the certificate-chain JWS (SafetyNet, MDS3) and Sign in with Apple's tokens are read with.
@Suite("JWSCompactParts")
struct JWSCompactPartsTests {
    @Test("three base64url parts decode; the signing input is the first two as they came, padding and all")
    func splitsAndDecodes() throws {
        let parts = try JWSCompactParts(Array("eyJhbGciOiJFUzI1NiJ9.aGk=.AAEC".utf8))
        #expect(parts.header == Array(#"{"alg":"ES256"}"#.utf8))
        #expect(parts.payload == Array("hi".utf8))
        #expect(parts.signature == [0, 1, 2])
        #expect(parts.signingInput == Array("eyJhbGciOiJFUzI1NiJ9.aGk=".utf8))
    }

    @Test("empty parts are empty bytes, not a failure")
    func emptyParts() throws {
        let parts = try JWSCompactParts("..".utf8)
        #expect(parts.header.isEmpty && parts.payload.isEmpty && parts.signature.isEmpty)
        #expect(parts.signingInput == Array(".".utf8))
    }

    @Test(
        "anything but three parts is refused with the count found",
        arguments: [
            ("", 1), ("abc", 1), ("a.b", 2), ("a.b.c.d", 4), ("....", 5),
        ])
    func refusesOtherPartCounts(token: String, count: Int) {
        #expect(throws: JWSCompactParts.Failure.partCount(count)) { try JWSCompactParts(token.utf8) }
    }

    @Test(
        "a part that is not base64url is refused, whichever part it is",
        arguments: ["!!.e30.AA", "e30.e3*.AA", "e30.e30.A"])
    func refusesNonBase64URL(token: String) {
        #expect(throws: JWSCompactParts.Failure.notBase64URL) { try JWSCompactParts(token.utf8) }
    }
}
