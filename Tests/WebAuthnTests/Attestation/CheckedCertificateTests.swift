import CBOR
import Foundation
import Testing
import X509

@testable import WebAuthn

/// Certificates from outside are refused when a validity time has a component swift-certificates cannot turn into a
/// date (`Certificate(checkedDEREncoded:)`). Found by the `certificate-chain` fuzz target: a GeneralizedTime
/// notAfter with a 61st second (`20520128171761Z`) parsed, and reading `notValidAfter` stopped a debug build on
/// swift-certificates' assertion. The input is kept in `Fuzz/Corpus/certificate-chain/regression-validity-second-61`.
@Suite("Certificates with out-of-range validity times")
struct CheckedCertificateTests {
    /// The fuzzer's certificate: a test attestation certificate whose notAfter reads `20520128171761Z`.
    static let secondSixtyOne: [UInt8] = Array(
        Data(
            base64Encoded: [
                "MIIDkzCCAnugAwIBAgIQNHis7M/xk1FQ7JkyRvYHsTANBgkqhkiG9w0BAQsFADAkMSIwIAYDVQQDDBlGSURPVEVTVC1UUE0tSU5U",
                "RVJNRURJQVRFMCIYDzIwMjQwOTEyMTYxNzE2WhgPMjA1MjAxMjgxNzE3NjFaMAAwggEiMA0GCSqGSIb3DQEBAQUAA4IBDwAwggEK",
                "AoIBAQCWAwmEsW957qP6oJORX9BlpgyBgqtyU3BAjQE+hneilXI3TcNxzg/qeZ86ZCeBKDezvcGoTzmDljwMULF4eKivg956SzbR",
                "5uMzFC7EEwgP4DBTHe19QbV3FRq8zquITRMontbu7cuR5qOcV1Yovh2sYEYvzt7/fv0f44SLs2aOPLWE8gLXXj09BcS/dHqcvrQ6",
                "lSoH4nAEGWkxSfeV9WAGn1YgqkaQZlnd35m7BfB/hSH33VrMnQ46SIrubgVKlGwoOEgPkLggDoHOHom9ydbxbu5+nXKtZqDMkz6V",
                "JXExx7jfBMO95rvZpJSrjGSVRdqYiekajJsZ2WiwZxp4ZSBrAgMBAAGjgeAwgd0wDgYDVR0PAQH/BAQDAgeAMBAGA1UdJQQJMAcG",
                "BWeBBQgDMEgGA1UdEQEB/wQ+MDykOjA4MTYwDQYFZ4EFAgMMBGlkOjEwDwYFZ4EFAgIMBklCTVRQTTAUBgVngQUCAQwLaWQ6RkZG",
                "RkYxRDAwHQYDVR0OBBYEFHZPPgjzg86jKepYNmzoYmVT6PlnMB8GA1UdIwQYMBaAFLx4vhNyBJcNxvUCe1y6mihJk3vrMAwGA1Ud",
                "EwEB/wQCMAAwIQYLKwYBBAGC5RwBAQQEEgQQuvsJHbgaRH6vnxL1Xq/MNDANBgkqhkiG9w0BAQsFAAOCAQEAUdorp2eq+VO7nch4",
                "+pOAS/wYeOWm5gZG/ynuFa0jY+KBo2718i8Vlx9w2zvRUwcuTw5DgPcusq+8UoURWXsbU1CxxMuCSiqPAI1Ie3jdZVxfK7vUVk4E",
                "dtL0XFVe2+i+O/a+oC+EY9UqbHMR81N2zSBhY1xoKLJxtHL0URqrgOfXttXymI07D1V3T6oeHQk7XOhz5KZCejQBnNxtSM8b5QCT",
                "sQTu5HYBmZ494+3UkP2TcXstnoQ9UtOVTDUxc+3G9s3sjqVkZRWkmZhfBhVYq+kXaBwdGkUasQdZg5Bi/CReIs+rQjXJkYmtK3op",
                "n6rMc2pU1EseeZtLlupOCbJNfg==",
            ].joined()) ?? Data())

    @Test func aSixtyFirstSecondIsRefusedWhereSwiftCertificatesWouldAssert() throws {
        // swift-certificates parses it; only reading its validity would trap.
        _ = try Certificate(derEncoded: Self.secondSixtyOne)
        #expect(throws: Certificate.ValidityTimeOutOfRange.self) {
            try Certificate(checkedDEREncoded: Self.secondSixtyOne)
        }
    }

    @Test func theSameCertificateWithAnInRangeSecondIsAccepted() throws {
        var der = Self.secondSixtyOne
        let time = Array("20520128171761Z".utf8)
        let start = try #require(der.indices.first { Array(der[$0..<min($0 + time.count, der.count)]) == time })
        der.replaceSubrange(start + 12..<start + 14, with: Array("15".utf8))
        let certificate = try Certificate(checkedDEREncoded: der)
        #expect(certificate.notValidAfter == Date(timeIntervalSince1970: 2_590_075_035))
    }

    @Test func anAttestationWithSuchACertificateIsMalformed() throws {
        // Authenticator data with an attested ES256 credential (the W3C none-attestation vector's).
        let authData = try #require(
            Base64URL.decode(
                "v6vDdDKViwYzYNOtZGHJxHNa5_jt1GWSpeDwFFKy5LVFAAAAAIg_T2AU8ZwJ2HqjgSO-SNAAIG4QUMDSyi8Hx1XLLGanTGT6QwZcGPk4NU2ZFdsr1c5XpQECAyYgASFYICIgCkc_kLEQeIUVUNA7TkSiJ5-MTsonsxU97f4D5Ol9Ilggy9C-ledGrW9agZG-EXVuTAQg5y9ltGbTm8VrixI6nG4"
            ))
        let data = try AuthenticatorData(bytes: authData)
        let credential = (data, try #require(data.attestedCredentialData))
        let context = AttestationContext(
            format: "packed", statement: CBORMap([(.textString("x5c"), .array([.byteString(Self.secondSixtyOne)]))]),
            authenticatorData: credential.0, clientDataHash: [], credential: credential.1, verificationTime: Date(),
            trust: .builtIn, options: AttestationOptions()
        )
        #expect { try context.certificateChain() } throws: { ($0 as? WebAuthnError)?.code == .certificateMalformed }
    }
}
