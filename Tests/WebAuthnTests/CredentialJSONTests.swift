import Foundation
import Testing

@testable import WebAuthn

@Suite("Credential and client-data JSON")
struct CredentialJSONTests {
    /// What a parser made of a credential: the value, or the code it failed with. Codable's `DecodingError`
    /// counts as ``WebAuthnError/Code/malformedCredential``, the code the one-pass parser gives malformed JSON.
    enum Outcome<Value: Equatable>: Equatable {
        case parsed(Value)
        case failed(WebAuthnError.Code)

        init(_ parse: () throws -> Value) {
            do {
                self = .parsed(try parse())
            } catch let error as WebAuthnError {
                self = .failed(error.code)
            } catch {
                self = .failed(.malformedCredential)
            }
        }
    }

    @Test("there are registration and authentication vectors to compare")
    func vectorsLoaded() throws {
        try #require(!Fixtures.registration.isEmpty)
        try #require(!Fixtures.authentication.isEmpty)
    }

    @Test("the one-pass parser and Codable agree on every registration vector", arguments: Fixtures.registration)
    func registrationAgrees(_ vector: Vector) throws {
        let fast = Outcome { try RegistrationCredential.parse(vector.credentialJSON) }
        let codable = Outcome { try JSONDecoder().decode(RegistrationCredential.self, from: vector.credentialJSON) }
        #expect(fast == codable)
    }

    @Test("the one-pass parser and Codable agree on every authentication vector", arguments: Fixtures.authentication)
    func authenticationAgrees(_ vector: Vector) throws {
        let fast = Outcome { try AuthenticationCredential.parse(vector.credentialJSON) }
        let codable = Outcome { try JSONDecoder().decode(AuthenticationCredential.self, from: vector.credentialJSON) }
        #expect(fast == codable)
    }

    @Test("rawId alone, id alone, padded and standard base64, and the conformance extension-results name")
    func tolerantForms() throws {
        let rawID: [UInt8] = [0xfb, 0xff, 0x01]
        let padded = "+/8B"  // standard alphabet, no padding needed for 3 bytes
        let onlyRaw =
            #"{"rawId":"\#(padded)","type":"public-key","response":{"clientDataJSON":"e30=","authenticatorData":"AA","signature":"AA"},"getClientExtensionResults":{"appid":true}}"#
        let parsed = try AuthenticationCredential.parse(Array(onlyRaw.utf8))
        #expect(parsed.rawId.bytes == rawID)
        #expect(parsed.id == "-_8B")
        #expect(parsed.response.clientDataJSON.bytes == Array("{}".utf8))
        #expect(parsed.clientExtensionResults["appid"] == .bool(true))

        let onlyID =
            #"{"id":"-_8B","type":"public-key","response":{"clientDataJSON":"e30","authenticatorData":"AA","signature":"AA","userHandle":""}}"#
        let second = try AuthenticationCredential.parse(Array(onlyID.utf8))
        #expect(second.rawId.bytes == rawID)
        #expect(second.response.userHandle == nil)
    }

    @Test(
        "malformed credential JSON fails with a specific code",
        arguments: [
            ("", WebAuthnError.Code.malformedCredential),
            ("[]", .malformedCredential),
            (#"{"id":"AA","type":"public-key"}"#, .malformedCredential),
            (
                #"{"type":"public-key","response":{"clientDataJSON":"e30","authenticatorData":"AA","signature":"AA"}}"#,
                .malformedCredential
            ),
            (
                #"{"id":"AA","rawId":"AQ","type":"public-key","response":{"clientDataJSON":"e30","authenticatorData":"AA","signature":"AA"}}"#,
                .credentialIdMismatch
            ),
            (
                #"{"id":"A*A","type":"public-key","response":{"clientDataJSON":"e30","authenticatorData":"AA","signature":"AA"}}"#,
                .invalidBase64
            ),
            (
                #"{"id":"AA","type":"public-key","response":{"clientDataJSON":"e30","authenticatorData":"AA"}}"#,
                .malformedCredential
            ),
            (
                #"{"id":"AA","type":"public-key","response":{"clientDataJSON":"%%","authenticatorData":"AA","signature":"AA"}}"#,
                .invalidBase64
            ),
            (
                #"{"id":"AA","type":"public-key","response":{"clientDataJSON":"e30","authenticatorData":"AA","signature":"AA"}} x"#,
                .malformedCredential
            ),
            (
                #"{"id":"AA","type":"public-key","response":{"clientDataJSON":"e30","authenticatorData":"AA","signature":"AA"},}"#,
                .malformedCredential
            ),
        ])
    func malformed(_ json: String, _ code: WebAuthnError.Code) {
        #expect {
            _ = try AuthenticationCredential.parse(Array(json.utf8))
        } throws: { ($0 as? WebAuthnError)?.code == code }
    }

    @Test("client data: escapes, unknown members, and rejection of duplicates and missing members")
    func clientData() throws {
        let json =
            #"{"type":"webauthn.get","challenge":"AQID","origin":"https:\/\/example.com\u0021","crossOrigin":false,"other":{"nested":[1,2.5e3,null,"\ud83d\ude00"]}}"#
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
        ]
        for text in bad {
            #expect(throws: WebAuthnError.self) { try CollectedClientData(bytes: Array(text.utf8)) }
        }
        #expect(throws: WebAuthnError.self) {
            try CollectedClientData(bytes: [0x7b, 0x22, 0xff, 0x22, 0x3a, 0x31, 0x7d])
        }
    }

    /// `[[[…]]]`, `depth` arrays deep.
    static func nested(_ depth: Int) -> String {
        String(repeating: "[", count: depth) + String(repeating: "]", count: depth)
    }

    @Test("client data with a member nested deeper than the limit fails as too deep; at the limit it parses")
    func clientDataDepth() throws {
        func clientData(_ other: String) -> [UInt8] {
            Array(#"{"type":"webauthn.get","challenge":"AQID","origin":"x","other":\#(other)}"#.utf8)
        }
        // The client data object is one level, so the member may nest maximumDepth - 1 arrays.
        #expect(try CollectedClientData(bytes: clientData(Self.nested(JSONReader.maximumDepth - 1))).origin == "x")
        let error = try #require(throws: WebAuthnError.self) {
            try CollectedClientData(bytes: clientData(Self.nested(JSONReader.maximumDepth)))
        }
        #expect(error.code == .clientDataMalformed)
        #expect(error.message.contains("JSON nests too deeply"))
    }

    @Test("a credential whose clientExtensionResults nest deeper than the limit fails as too deep")
    func credentialDepth() throws {
        func credential(_ extensionValue: String) -> [UInt8] {
            Array(
                #"{"id":"AA","type":"public-key","response":{"clientDataJSON":"e30","authenticatorData":"AA","signature":"AA"},"clientExtensionResults":{"x":\#(extensionValue)}}"#
                    .utf8)
        }
        // The credential and clientExtensionResults objects are two levels.
        let parsed = try AuthenticationCredential.parse(credential(Self.nested(JSONReader.maximumDepth - 2)))
        #expect(parsed.clientExtensionResults["x"] != nil)
        let error = try #require(throws: WebAuthnError.self) {
            try AuthenticationCredential.parse(credential(Self.nested(JSONReader.maximumDepth - 1)))
        }
        #expect(error.code == .malformedCredential)
        #expect(error.message.contains("JSON nests too deeply"))
    }

    @Test("a string with an escape and a byte that is not UTF-8 fails like one without the escape")
    func escapedStringRejectsInvalidUTF8() throws {
        // {"type":"a\n<0xFF>", …}: the escape sends the string down the escape-decoding path.
        for prefix: [UInt8] in [[0x5c, 0x6e, 0xff], [0xff, 0x5c, 0x6e], [0xff]] {
            let bytes = Array(#"{"type":""#.utf8) + prefix + Array(#"","challenge":"AQID","origin":"x"}"#.utf8)
            let error = try #require(throws: WebAuthnError.self) { try CollectedClientData(bytes: bytes) }
            #expect(error.code == .clientDataMalformed)
            #expect(error.message.contains("not valid UTF-8"))
        }
        // Valid multi-byte UTF-8 on both sides of an escape still decodes.
        let valid = Array(#"{"type":"é\né","challenge":"AQID","origin":"x"}"#.utf8)
        #expect(try CollectedClientData(bytes: valid).type == "é\né")
    }

    @Test("a string without escapes is read as ASCII or validated as UTF-8, whichever its bytes are")
    func unescapedStrings() throws {
        func type(_ raw: [UInt8]) throws -> String {
            try CollectedClientData(
                bytes: Array(#"{"type":""#.utf8) + raw + Array(#"","challenge":"AQID","origin":"x"}"#.utf8)
            ).type
        }
        #expect(try type(Array("webauthn.get".utf8)) == "webauthn.get")
        #expect(try type(Array("é€😀".utf8)) == "é€😀")
        // A truncated sequence, an overlong encoding, a surrogate and a stray continuation byte, after ASCII.
        for invalid: [UInt8] in [[0xF0, 0x90, 0x80], [0xC0, 0xAF], [0xED, 0xA0, 0x80], [0x80]] {
            let error = try #require(throws: WebAuthnError.self) { try type(Array("webauthn".utf8) + invalid) }
            #expect(error.message.contains("not valid UTF-8"))
        }
    }

    @Test("token binding: a Level 2 object is checked, a bare string is ignored")
    func tokenBinding() throws {
        let object =
            #"{"type":"webauthn.create","challenge":"AQID","origin":"x","tokenBinding":{"status":"not-supported"}}"#
        #expect(try CollectedClientData(bytes: Array(object.utf8)).tokenBindingStatus == "not-supported")
        let string = #"{"type":"webauthn.create","challenge":"AQID","origin":"x","tokenBinding":"present"}"#
        #expect(try CollectedClientData(bytes: Array(string.utf8)).tokenBindingStatus == nil)
    }
}
