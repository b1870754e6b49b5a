import CBOR
import Crypto
import Foundation
import LatchkeyTestSupport
import Testing
import WebAuthn

@Suite("latchkey inspect")
struct InspectTests {
    /// Files a test writes, removed after it.
    let scratch = ScratchDirectory(prefix: "latchkey-cli")

    static let registration = "packed-es256.registration.json"
    static let authentication = "counter-not-increased.authentication.json"

    /// A response field of the authentication fixture as unpadded base64url (SimpleWebAuthn's capture pads).
    static func authenticationField(_ field: String) throws -> String {
        try CLIHarness.responseField(field, of: authentication).trimmingCharacters(in: CharacterSet(charactersIn: "="))
    }

    private func inspect(_ value: String, stdin: [UInt8] = []) async -> CLIHarness.Result {
        await CLIHarness.run(["inspect", value], stdin: stdin)
    }

    private func expectKind(_ result: CLIHarness.Result, _ kind: String, encoding: String, source: String = "argument")
        throws -> JSONValue
    {
        #expect(result.status == 0, "\(result.output)")
        let json = try result.json()
        #expect(json["kind"]?.stringValue == kind)
        #expect(json["input"]?["encoding"]?.stringValue == encoding)
        #expect(json["input"]?["source"]?.stringValue == source)
        return try #require(json[kind])
    }

    /// Standard padded base64 of base64url text.
    private func standardBase64(_ base64url: String) throws -> String {
        Data(try #require(Base64URL.decode(base64url))).base64EncodedString()
    }

    private func hex(_ base64url: String) throws -> String {
        Hex.encode(try #require(Base64URL.decode(base64url)))
    }

    // MARK: attestation objects in each encoding

    @Test("an attestation object in base64url shows fmt, the statement's certificates and the authenticator data")
    func attestationObjectBase64URL() async throws {
        let value = try CLIHarness.responseField("attestationObject", of: Self.registration)
        let object = try expectKind(await inspect(value), "attestationObject", encoding: "base64url")
        #expect(object["fmt"]?.stringValue == "packed")
        #expect(object["attStmt"]?["alg"]?["name"]?.stringValue == "ES256")
        #expect(object["attStmt"]?["sigLength"]?.numberValue == 71)
        let certificate = try #require(object["attStmt"]?["x5c"]?[0])
        #expect(
            certificate["subject"]?.stringValue == "C=AA,OU=Authenticator Attestation,O=W3C,CN=WebAuthn test vectors")
        #expect(certificate["issuer"]?.stringValue?.contains("Authenticator Attestation CA") == true)
        #expect(certificate["serialNumber"]?.stringValue == "88c220f83c8ef1feafe94deae45faad0")
        #expect(certificate["publicKey"]?.stringValue == "EC P-256")
        #expect(certificate["notAfter"]?.stringValue == "3024-01-01T00:00:00Z")
        let oids = certificate["extensions"]?.arrayValue?.compactMap { $0["oid"]?.stringValue } ?? []
        #expect(oids.contains("2.5.29.19"))
        #expect(
            object["authData"]?["attestedCredentialData"]?["aaguid"]?.stringValue
                == "876ca4f5-2071-c3e9-b255-09ef2cdf7ed6")
        #expect(object["authData"]?["attestedCredentialData"]?["publicKey"]?["crv"]?["name"]?.stringValue == "P-256")
    }

    @Test("the same attestation object in standard base64 and in hex")
    func attestationObjectOtherEncodings() async throws {
        let value = try CLIHarness.responseField("attestationObject", of: Self.registration)
        let base64 = try expectKind(await inspect(try standardBase64(value)), "attestationObject", encoding: "base64")
        #expect(base64["fmt"]?.stringValue == "packed")
        let hex = try expectKind(await inspect(try hex(value)), "attestationObject", encoding: "hex")
        #expect(hex["fmt"]?.stringValue == "packed")
    }

    @Test("an attestation object whose authenticator data is broken is reported as that error, exit 1")
    func brokenAttestationObject() async throws {
        let object = CBOREncoder.encode(
            .map(
                CBORMap([
                    ("fmt", "none"), ("attStmt", .map(CBORMap())), ("authData", .byteString([0x00, 0x01])),
                ])))
        let result = await inspect(Base64URL.encode(object))
        #expect(result.status == 1)
        #expect(result.errorCode == "authenticatorDataMalformed")
    }

    // MARK: authenticator data, client data, COSE keys

    @Test("authenticator data spells out the RP ID hash, every flag and the counter")
    func authenticatorData() async throws {
        let value = try Self.authenticationField("authenticatorData")
        for encoded in [value, try hex(value)] {
            let data = try expectKind(
                await inspect(encoded), "authenticatorData", encoding: encoded == value ? "base64url" : "hex")
            #expect(data["rpIdHash"]?.stringValue == Hex.encode(SHA256.hash(data: Array("dev.dontneeda.pw".utf8))))
            #expect(data["signCount"]?.numberValue == 144)
            #expect(data["flags"]?["UP"]?.boolValue == true)
            #expect(data["flags"]?["UV"]?.boolValue == false)
            #expect(data["flags"]?["AT"]?.boolValue == false)
            for flag in ["BE", "BS", "ED"] {
                #expect(data["flags"]?[flag]?.boolValue == false, "flags byte 0x01: only UP")
            }
            #expect(data["attestedCredentialData"] == nil)
        }
    }

    @Test("client data shows the challenge as base64url and, when it is text, as text")
    func clientData() async throws {
        let value = try Self.authenticationField("clientDataJSON")
        let data = try expectKind(await inspect(value), "clientDataJSON", encoding: "base64url")
        #expect(data["type"]?.stringValue == "webauthn.get")
        #expect(data["challenge"]?.stringValue == "dG90YWxseVVuaXF1ZVZhbHVlRXZlcnlUaW1l")
        #expect(data["challengeText"]?.stringValue == "totallyUniqueValueEveryTime")
        #expect(data["origin"]?.stringValue == "https://dev.dontneeda.pw")
        let bytes = try #require(Base64URL.decode(value))
        #expect(data["sha256"]?.stringValue == Hex.encode(SHA256.hash(data: bytes)))
    }

    @Test("client data given as raw JSON text")
    func clientDataJSONText() async throws {
        let text = #"{"type":"webauthn.create","challenge":"AAEC","origin":"https://example.org","extra":1}"#
        let data = try expectKind(await inspect(text), "clientDataJSON", encoding: "json")
        #expect(data["challengeLength"]?.numberValue == 3)
        #expect(data["challengeText"] == nil)
        #expect(data["otherFields"]?["extra"]?.numberValue == 1)
    }

    @Test("a COSE key shows kty, alg and curve names and the coordinates")
    func coseKey() async throws {
        let value =
            "pQECAyYgASFYIIheFp-u6GvFT2LNGovf3ZrT0iFVBsA_76rRysxRG9A1Ilgg8WGeA6hPmnab0HAViUYVRkwTNcN77QBf_RR0dv3lIvQ"
        let key = try expectKind(await inspect(value), "coseKey", encoding: "base64url")
        #expect(key["kty"]?["name"]?.stringValue == "EC2")
        #expect(key["alg"]?["name"]?.stringValue == "ES256")
        #expect(key["alg"]?["number"]?.numberValue == -7)
        #expect(key["crv"]?["name"]?.stringValue == "P-256")
        #expect(key["x"]?.stringValue == "iF4Wn67oa8VPYs0ai9_dmtPSIVUGwD_vqtHKzFEb0DU")
        #expect(key["y"]?.stringValue?.count == 43)
        #expect(key["cose"]?.stringValue == value)
    }

    @Test("an RSA COSE key shows n, e and the modulus size")
    func rsaKey() async throws {
        let modulus = [UInt8](repeating: 0xC5, count: 256)
        let key = COSEKey(algorithm: .rs256, parameters: .rsa(n: modulus, e: [0x01, 0x00, 0x01]))
        let report = try expectKind(await inspect(Base64URL.encode(key.rawBytes)), "coseKey", encoding: "base64url")
        #expect(report["kty"]?["name"]?.stringValue == "RSA")
        #expect(report["alg"]?["name"]?.stringValue == "RS256")
        #expect(report["e"]?.stringValue == "AQAB")
        #expect(report["keySizeBits"]?.numberValue == 2048)
    }

    // MARK: certificates

    @Test("a PEM certificate file")
    func pemCertificate() async throws {
        let certificate = try expectKind(
            await inspect(try CLIHarness.fixture("w3c-test-vectors-ca.pem")), "certificate", encoding: "pem",
            source: "file"
        )
        #expect(certificate["subject"]?.stringValue?.contains("OU=Authenticator Attestation CA") == true)
        #expect(certificate["isCertificateAuthority"]?.boolValue == true)
        let basic = certificate["extensions"]?.arrayValue?.first { $0["oid"]?.stringValue == "2.5.29.19" }
        #expect(basic?["name"]?.stringValue == "basicConstraints")
        #expect(basic?["critical"]?.boolValue == true)
        #expect(basic?["decoded"]?.stringValue?.contains("CA=TRUE") == true)
    }

    @Test("a DER certificate file and the same certificate as base64 text")
    func derCertificate() async throws {
        let pem = String(decoding: try CLIHarness.fixtureBytes("w3c-test-vectors-ca.pem"), as: UTF8.self)
        let body = pem.split(separator: "\n").filter { !$0.hasPrefix("-----") }.joined()
        let der = Array(try #require(Data(base64Encoded: body)))
        let path = try scratch.file(der, suffix: ".der")
        let fromFile = try expectKind(await inspect(path), "certificate", encoding: "binary", source: "file")
        #expect(fromFile["sha256"]?.stringValue == Hex.encode(SHA256.hash(data: der)))
        let fromText = try expectKind(await inspect(body), "certificate", encoding: "base64")
        #expect(fromText["serialNumber"] == fromFile["serialNumber"])
    }

    // MARK: credential JSON

    @Test("a registration credential JSON file is decoded part by part")
    func registrationCredential() async throws {
        let credential = try expectKind(
            await inspect(try CLIHarness.fixture(Self.registration)), "registrationCredential", encoding: "json",
            source: "file"
        )
        #expect(credential["id"]?.stringValue == "yab1s0YtAoc_6gxWhiI0-Z8IFygITlEbt3YCAaiQVKU")
        #expect(credential["response"]?["clientDataJSON"]?["type"]?.stringValue == "webauthn.create")
        #expect(credential["response"]?["attestationObject"]?["fmt"]?.stringValue == "packed")
    }

    @Test("an authentication credential JSON from standard input")
    func authenticationCredential() async throws {
        let credential = try expectKind(
            await inspect("-", stdin: try CLIHarness.fixtureBytes(Self.authentication)),
            "authenticationCredential", encoding: "json", source: "stdin"
        )
        #expect(credential["response"]?["authenticatorData"]?["signCount"]?.numberValue == 144)
        #expect(
            credential["response"]?["clientDataJSON"]?["challengeText"]?.stringValue == "totallyUniqueValueEveryTime")
        #expect(credential["response"]?["signature"]?["length"]?.numberValue ?? 0 > 60)
    }

    @Test("a credential with a broken part still shows the other parts, with an error in place of the broken one")
    func partialCredential() async throws {
        let clientData = try CLIHarness.responseField("clientDataJSON", of: Self.registration)
        let text =
            #"{"id":"AAAA","type":"public-key","response":{"clientDataJSON":"\#(clientData)","attestationObject":"oA"}}"#
        let credential = try expectKind(await inspect(text), "registrationCredential", encoding: "json")
        #expect(credential["response"]?["clientDataJSON"]?["type"]?.stringValue == "webauthn.create")
        #expect(
            credential["response"]?["attestationObject"]?["error"]?["code"]?.stringValue == "attestationObjectMalformed"
        )
    }

    // MARK: generic and unknown values

    @Test("CBOR that is no WebAuthn structure is rendered generically")
    func genericCBOR() async throws {
        let cbor = try expectKind(await inspect("a26161016162820203"), "cbor", encoding: "hex")
        #expect(cbor["a"]?.numberValue == 1)
        #expect(cbor["b"]?[1]?.numberValue == 3)
    }

    @Test("generic CBOR shows byte strings as base64url with their length, integer keys as text")
    func genericCBORBytes() async throws {
        let value = CBOREncoder.encode(
            .map(CBORMap([(.int(-5), .byteString([1, 2, 3])), (.int(9), .array([.null, true]))])))
        let cbor = try expectKind(await inspect(Hex.encode(value)), "cbor", encoding: "hex")
        #expect(cbor["-5"]?["bytes"]?.stringValue == "AQID")
        #expect(cbor["-5"]?["length"]?.numberValue == 3)
        #expect(cbor["9"]?[1]?.boolValue == true)
    }

    @Test("a base64url value that starts with - is the value, not an option")
    func valueStartingWithDash() async throws {
        // 0xfb 3ff8000000000000: the CBOR double 1.5.
        let cbor = try expectKind(await inspect("-z_4AAAAAAAA"), "cbor", encoding: "base64url")
        #expect(cbor.numberValue == 1.5)
    }

    @Test("inspect takes exactly one value")
    func oneValue() async {
        #expect(await CLIHarness.run(["inspect"]).status == 64)
        #expect(await CLIHarness.run(["inspect", "AQID", "AQID"]).status == 64)
    }

    @Test(
        "a value that is nothing known fails with inspect.unrecognized, exit 1", arguments: ["hello world", "", "zz"])
    func unrecognized(value: String) async {
        let result = await inspect(value)
        #expect(result.status == 1)
        #expect(result.errorCode == "inspect.unrecognized")
    }

    @Test("text that starts like JSON but is not fails with inspect.invalidJSON")
    func invalidJSON() async {
        let result = await inspect("{not json")
        #expect(result.status == 1)
        #expect(result.errorCode == "inspect.invalidJSON")
    }
}
