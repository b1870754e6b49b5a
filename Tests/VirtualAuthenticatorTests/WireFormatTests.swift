import CBOR
import Crypto
import Foundation
import Testing
import VirtualAuthenticator
import WebAuthn
import X509

/// The bytes and JSON the virtual authenticator produces are the ones a browser would.
@Suite("Wire format: the JSON and bytes a browser produces")
struct WireFormatTests {
    @Test("registration JSON has exactly the members of RegistrationResponseJSON")
    func registrationJSON() async throws {
        let harness = Harness()
        let credential = try await harness.create(harness.creationOptions())
        let json = try #require(
            try JSONSerialization.jsonObject(with: JSONEncoder().encode(credential)) as? [String: Any])
        #expect(
            Set(json.keys) == ["id", "rawId", "type", "response", "authenticatorAttachment", "clientExtensionResults"])
        #expect(json["type"] as? String == "public-key")
        #expect(json["id"] as? String == json["rawId"] as? String)
        #expect(json["id"] as? String == Base64URL.encode(credential.rawId.bytes))
        #expect(json["authenticatorAttachment"] as? String == "cross-platform")
        let response = try #require(json["response"] as? [String: Any])
        #expect(
            Set(response.keys) == [
                "clientDataJSON", "attestationObject", "authenticatorData", "transports", "publicKey",
                "publicKeyAlgorithm",
            ])
        #expect(response["transports"] as? [String] == ["usb"])
        #expect(response["publicKeyAlgorithm"] as? Int == -7)
        let extensions = try #require(json["clientExtensionResults"] as? [String: Any])
        #expect((extensions["credProps"] as? [String: Any])?["rk"] as? Bool == true)
        for value in [json["id"], response["clientDataJSON"], response["attestationObject"], response["publicKey"]] {
            let text = try #require(value as? String)
            #expect(
                !text.contains("=") && !text.contains("+") && !text.contains("/"), "not unpadded base64url: \(text)")
        }
    }

    @Test("authentication JSON has exactly the members of AuthenticationResponseJSON")
    func authenticationJSON() async throws {
        let harness = Harness()
        _ = try await harness.registeredRecord()
        let credential = try await harness.authenticator.authenticate(
            options: harness.requestOptions(), origin: harness.origin)
        let json = try #require(
            try JSONSerialization.jsonObject(with: JSONEncoder().encode(credential)) as? [String: Any])
        #expect(
            Set(json.keys) == ["id", "rawId", "type", "response", "authenticatorAttachment", "clientExtensionResults"])
        let response = try #require(json["response"] as? [String: Any])
        #expect(Set(response.keys) == ["clientDataJSON", "authenticatorData", "signature", "userHandle"])
        #expect(response["userHandle"] as? String == Base64URL.encode(Harness.alice.id.bytes))
    }

    @Test("clientDataJSON: the browser's member order and form")
    func clientDataJSON() async throws {
        let harness = Harness()
        let options = harness.creationOptions()
        let credential = try await harness.create(options)
        let text = String(decoding: credential.response.clientDataJSON.bytes, as: UTF8.self)
        let challenge = Base64URL.encode(options.challenge.bytes)
        #expect(
            text
                == #"{"type":"webauthn.create","challenge":"\#(challenge)","origin":"https://example.com","crossOrigin":false}"#
        )

        let framed = try await harness.authenticator.authenticate(
            options: harness.requestOptions(), origin: harness.origin, topOrigin: "https://top.example"
        )
        let framedText = String(decoding: framed.response.clientDataJSON.bytes, as: UTF8.self)
        #expect(framedText.hasPrefix(#"{"type":"webauthn.get","challenge":""#))
        #expect(
            framedText.hasSuffix(
                #","origin":"https://example.com","crossOrigin":true,"topOrigin":"https://top.example"}"#))
    }

    @Test("clientDataJSON escapes as CCDToString does and parses back to the same strings")
    func clientDataEscaping() async throws {
        let harness = Harness()
        let odd = "https://exa\"mple\\.com/\u{01}\u{1f}é😀"
        let credential = try await harness.create(harness.creationOptions(), tampering: Tampering(origin: odd))
        let text = String(decoding: credential.response.clientDataJSON.bytes, as: UTF8.self)
        #expect(text.contains(#""origin":"https://exa\"mple\\.com/\u0001\u001fé😀""#))
        #expect(try CollectedClientData(bytes: credential.response.clientDataJSON.bytes).origin == odd)
    }

    @Test("base64url-text challenge form: base64url(utf8(base64url(challenge)))")
    func textChallengeForm() async throws {
        let harness = Harness()
        let options = harness.creationOptions()
        let credential = try await harness.create(options, tampering: Tampering(challengeAsBase64URLText: true))
        let clientData = try CollectedClientData(bytes: credential.response.clientDataJSON.bytes)
        #expect(clientData.challenge == Array(Base64URL.encode(options.challenge.bytes).utf8))
    }

    @Test("attestation object: fmt, attStmt, authData; authData matches the response's copy")
    func attestationObject() async throws {
        let harness = Harness(.testing(attestation: .packed(try TestCA.root.get())))
        let credential = try await harness.create(harness.creationOptions())
        let object = try AttestationObject(bytes: credential.response.attestationObject.bytes)
        #expect(object.format == "packed")
        #expect(object.statement[text: "alg"]?.intValue == COSEAlgorithm.es256.rawValue)
        #expect(object.statement[text: "sig"]?.bytesValue?.isEmpty == false)
        #expect(object.statement[text: "x5c"]?.arrayValue?.count == 1)
        #expect(object.authenticatorData.rawValue == credential.response.authenticatorData?.bytes)
        let attested = try #require(object.authenticatorData.attestedCredentialData)
        #expect(attested.credentialID == credential.rawId.bytes)
        #expect(object.authenticatorData.flags.rawValue == 0x45)  // UP | UV | AT
    }

    @Test("the fido-u2f statement has exactly sig and a one-certificate x5c")
    func u2fStatement() async throws {
        let harness = Harness(.testing(attestation: .fidoU2F(try TestCA.root.get().makeIntermediate())))
        let credential = try await harness.create(harness.creationOptions())
        let object = try AttestationObject(bytes: credential.response.attestationObject.bytes)
        #expect(object.format == "fido-u2f")
        #expect(Set(object.statement.keys) == [.textString("sig"), .textString("x5c")])
        #expect(object.statement[text: "x5c"]?.arrayValue?.count == 1)
    }

    @Test("getPublicKey(): SPKI DER of the credential key", arguments: VirtualAuthenticator.supportedAlgorithms)
    func subjectPublicKeyInfo(algorithm: COSEAlgorithm) async throws {
        let harness = Harness()
        let options = harness.creationOptions(algorithms: [algorithm])
        let credential = try await harness.create(options)
        let spki = try #require(credential.response.publicKey?.bytes)
        let coseKey = try #require(
            try AttestationObject(bytes: credential.response.attestationObject.bytes)
                .authenticatorData.attestedCredentialData?.publicKey)
        switch coseKey.parameters {
        case .akp(let publicKey):
            // SEQUENCE { SEQUENCE { id-ml-dsa-65/87 }, BIT STRING (0 unused bits) pk }
            let oidLastByte: UInt8 = algorithm == .mlDSA65 ? 0x12 : 0x13
            #expect(spki.starts(with: [0x30, 0x82]))
            #expect(
                Array(spki[4..<17]) == [
                    0x30, 0x0b, 0x06, 0x09, 0x60, 0x86, 0x48, 0x01, 0x65, 0x03, 0x04, 0x03, oidLastByte,
                ])
            #expect(Array(spki.suffix(publicKey.count + 1)) == [0x00] + publicKey)
        default:
            let parsed = try Certificate.PublicKey(derEncoded: spki)
            #expect(try SignatureVerifier(certificateKey: parsed, algorithm: algorithm).algorithm == algorithm)
            // The BIT STRING at the end holds the key exactly as the COSE key gives it.
            let keyBits = Array(parsed.subjectPublicKeyInfoBytes)
            #expect(spki.suffix(keyBits.count).elementsEqual(keyBits))
            switch coseKey.parameters {
            case .ec2(_, let x, let y): #expect(keyBits == [0x04] + x + y)
            case .okp(_, let x): #expect(keyBits == x)
            case .rsa(let n, _): #expect(keyBits.firstRange(of: n) != nil)
            case .akp: Issue.record("unreachable")
            }
        }
    }

    @Test(
        "EC2 COSE keys carry the full-width coordinates of their curve",
        arguments: [
            (COSEAlgorithm.es256, 32), (.es384, 48), (.es512, 66),
        ])
    func ecCoordinates(algorithm: COSEAlgorithm, width: Int) async throws {
        let harness = Harness()
        let credential = try await harness.create(harness.creationOptions(algorithms: [algorithm]))
        let key = try #require(
            try AttestationObject(bytes: credential.response.attestationObject.bytes)
                .authenticatorData.attestedCredentialData?.publicKey)
        guard case .ec2(_, let x, let y) = key.parameters else {
            Issue.record("not an EC2 key: \(key.parameters)")
            return
        }
        #expect(x.count == width && y.count == width)
    }
}
