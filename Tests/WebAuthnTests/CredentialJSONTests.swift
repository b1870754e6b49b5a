import Foundation
import Testing
@testable import WebAuthn

@Suite("Credential and client-data JSON")
struct CredentialJSONTests {
    @Test("the one-pass parser and Codable agree on every registration vector", arguments: Fixtures.registration)
    func registrationAgrees(_ vector: Vector) throws {
        let fast = try? RegistrationCredential.parse(vector.credentialJSON)
        let codable = try? JSONDecoder().decode(RegistrationCredential.self, from: vector.credentialJSON)
        #expect(fast == codable)
    }

    @Test("the one-pass parser and Codable agree on every authentication vector", arguments: Fixtures.authentication)
    func authenticationAgrees(_ vector: Vector) throws {
        let fast = try AuthenticationCredential.parse(vector.credentialJSON)
        let codable = try JSONDecoder().decode(AuthenticationCredential.self, from: vector.credentialJSON)
        #expect(fast == codable)
    }

    @Test("rawId alone, id alone, padded and standard base64, and the conformance extension-results name")
    func tolerantForms() throws {
        let rawID: [UInt8] = [0xfb, 0xff, 0x01]
        let padded = "+/8B"  // standard alphabet, no padding needed for 3 bytes
        let onlyRaw = #"{"rawId":"\#(padded)","type":"public-key","response":{"clientDataJSON":"e30=","authenticatorData":"AA","signature":"AA"},"getClientExtensionResults":{"appid":true}}"#
        let parsed = try AuthenticationCredential.parse(Array(onlyRaw.utf8))
        #expect(parsed.rawId.bytes == rawID)
        #expect(parsed.id == "-_8B")
        #expect(parsed.response.clientDataJSON.bytes == Array("{}".utf8))
        #expect(parsed.clientExtensionResults["appid"] == .bool(true))

        let onlyID = #"{"id":"-_8B","type":"public-key","response":{"clientDataJSON":"e30","authenticatorData":"AA","signature":"AA","userHandle":""}}"#
        let second = try AuthenticationCredential.parse(Array(onlyID.utf8))
        #expect(second.rawId.bytes == rawID)
        #expect(second.response.userHandle == nil)
    }

    @Test("malformed credential JSON fails with a specific code", arguments: [
        ("", WebAuthnError.Code.malformedCredential),
        ("[]", .malformedCredential),
        (#"{"id":"AA","type":"public-key"}"#, .malformedCredential),
        (#"{"type":"public-key","response":{"clientDataJSON":"e30","authenticatorData":"AA","signature":"AA"}}"#, .malformedCredential),
        (#"{"id":"AA","rawId":"AQ","type":"public-key","response":{"clientDataJSON":"e30","authenticatorData":"AA","signature":"AA"}}"#, .credentialIdMismatch),
        (#"{"id":"A*A","type":"public-key","response":{"clientDataJSON":"e30","authenticatorData":"AA","signature":"AA"}}"#, .invalidBase64),
        (#"{"id":"AA","type":"public-key","response":{"clientDataJSON":"e30","authenticatorData":"AA"}}"#, .malformedCredential),
        (#"{"id":"AA","type":"public-key","response":{"clientDataJSON":"%%","authenticatorData":"AA","signature":"AA"}}"#, .invalidBase64),
        (#"{"id":"AA","type":"public-key","response":{"clientDataJSON":"e30","authenticatorData":"AA","signature":"AA"}} x"#, .malformedCredential),
        (#"{"id":"AA","type":"public-key","response":{"clientDataJSON":"e30","authenticatorData":"AA","signature":"AA"},}"#, .malformedCredential),
    ])
    func malformed(_ json: String, _ code: WebAuthnError.Code) {
        #expect {
            _ = try AuthenticationCredential.parse(Array(json.utf8))
        } throws: { ($0 as? WebAuthnError)?.code == code }
    }

    @Test("client data: escapes, unknown members, and rejection of duplicates and missing members")
    func clientData() throws {
        let json = #"{"type":"webauthn.get","challenge":"AQID","origin":"https:\/\/example.com\u0021","crossOrigin":false,"other":{"nested":[1,2.5e3,null,"\ud83d\ude00"]}}"#
        let parsed = try CollectedClientData(bytes: Array(json.utf8))
        #expect(parsed.type == "webauthn.get")
        #expect(parsed.challenge == [1, 2, 3])
        #expect(parsed.origin == "https://example.com!")
        #expect(parsed.crossOrigin == false)

        let bad = [
            #"{"type":"webauthn.get","type":"webauthn.create","challenge":"AQID","origin":"x"}"#,
            #"{"type":"webauthn.get","origin":"x"}"#,
            #"{"type":"webauthn.get","challenge":"A*","origin":"x"}"#,
            #"{"type":"webauthn.get","challenge":"AQID","origin":"x\ud800"}"#,
            #"{"type":"webauthn.get","challenge":"AQID","origin":"x""#,
            String(repeating: "[", count: 100) + String(repeating: "]", count: 100),
        ]
        for text in bad {
            #expect(throws: WebAuthnError.self) { try CollectedClientData(bytes: Array(text.utf8)) }
        }
        #expect(throws: WebAuthnError.self) { try CollectedClientData(bytes: [0x7b, 0x22, 0xff, 0x22, 0x3a, 0x31, 0x7d]) }
    }

    @Test("token binding: a Level 2 object is checked, a bare string is ignored")
    func tokenBinding() throws {
        let object = #"{"type":"webauthn.create","challenge":"AQID","origin":"x","tokenBinding":{"status":"not-supported"}}"#
        #expect(try CollectedClientData(bytes: Array(object.utf8)).tokenBindingStatus == "not-supported")
        let string = #"{"type":"webauthn.create","challenge":"AQID","origin":"x","tokenBinding":"present"}"#
        #expect(try CollectedClientData(bytes: Array(string.utf8)).tokenBindingStatus == nil)
    }
}
