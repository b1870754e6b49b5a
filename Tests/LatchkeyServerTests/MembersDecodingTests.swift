import Foundation
import LatchkeyAPI
import Testing
import WebAuthn

@testable import LatchkeyServer

/// The sign-in options' body read from its members (`MembersDecodable`): the value `JSONDecoder` reads wherever the
/// fast form takes a body, and every other body left to `JSONDecoder`, whose errors the route keeps.
@Suite("Request bodies read from their members")
struct MembersDecodingTests {
    /// Bodies the fast form reads, and what it reads.
    static let taken: [(String, String?)] = [
        ("{}", nil),
        (#"{"username":"alice"}"#, "alice"),
        (#"{"username":null}"#, nil),
        (#" { "username" : "spaced" , "other" : [1, {"a": [true, null]}] } "#, "spaced"),
        (#"{"username":"quote\" back\\ \u00e9 \ud83d\ude00 é"}"#, "quote\" back\\ é 😀 é"),
        (#"{"username":""}"#, ""),
        (#"{"username":"first","username":"last"}"#, "first"),
        (#"{"username":"second","username":5}"#, "second"),
    ]
    /// Bodies it leaves to `JSONDecoder`: other types (also as a repeated member's first value), not an object, not
    /// JSON, a lone surrogate.
    static let leftToJSONDecoder = [
        #"{"username":5,"username":"second"}"#,
        #"{"username":5}"#, #"{"username":["a"]}"#, #"{"username":{"a":1}}"#, #"{"username":false}"#, "[]", "null",
        #""alice""#, "{bad", #"{"username":"a"} trailing"#, #"{"username":"\ud800"}"#,
    ]

    @Test("where the fast form reads a body it reads what JSONDecoder reads")
    func sameValueAsJSONDecoder() throws {
        for (body, username) in Self.taken {
            let members = try JSONMembers(Array(body.utf8))
            let fast = try #require(AuthenticationOptionsRequest(members: members), "\(body)")
            #expect(fast.username == username, "\(body)")
            let decoded = try APIJSON.makeDecoder().decode(AuthenticationOptionsRequest.self, from: Data(body.utf8))
            #expect(fast == decoded, "\(body)")
        }
    }

    @Test("other bodies are left to JSONDecoder")
    func othersAreLeft() {
        for body in Self.leftToJSONDecoder {
            let fast = (try? JSONMembers(Array(body.utf8))).flatMap { AuthenticationOptionsRequest(members: $0) }
            #expect(fast == nil, "\(body)")
        }
    }

    @Test("the route answers the bodies left to JSONDecoder with JSONDecoder's codes, and reads the others")
    func routeKeepsItsErrors() async throws {
        try await withServer(.sqlite) { server in
            let app = server.app()
            let path = APIPaths.Native.authenticationOptions
            for body in [#"{"username":5}"#, #"{"username":["a"]}"#, "[]", "null", #"{"username":5,"username":"b"}"#] {
                let answer = try await app.send(.post, path, text: body)
                #expect(answer.status == .badRequest, "\(body)")
                #expect(answer.errorCode == "request.invalidField", "\(body)")
            }
            for body in ["{bad", #"{"username":"a"} trailing"#, #"{"username":"\ud800"}"#] {
                let answer = try await app.send(.post, path, text: body)
                #expect(answer.errorCode == "request.malformedJSON", "\(body)")
            }
            for body in [
                "", "{}", #"{"username":null}"#, #"{"username":"nobody-here"}"#, #"{"username":"a","username":"b"}"#,
            ] {
                let answer = try await app.send(.post, path, text: body)
                #expect(answer.status == .ok, "\(body): \(String(decoding: answer.body, as: UTF8.self))")
                let options = try APIJSON.makeDecoder().decode(
                    AuthenticationOptionsResponse.self, from: Data(answer.body))
                #expect(!options.ticket.isEmpty)
            }
        }
    }
}
