import Foundation
import Testing
import WebAuthn

/// `JSONMembers`: a JSON object's top-level members as raw text, read as Foundation's `JSONDecoder` reads them.
@Suite("JSON members")
struct JSONMembersTests {
    let members: JSONMembers

    init() throws {
        members = try JSONMembers(Array(#"{"a":"1","b":null,"a":"3","c":{"x":1,"x":2},"d":4,"e":["p","q"]}"#.utf8))
    }

    @Test("a repeated member keeps its first value, as JSONDecoder reads it; nested objects are kept as they came")
    func repeatedMembers() throws {
        #expect(members.string("a") == "1")
        struct A: Decodable { let a: String }
        #expect(try JSONDecoder().decode(A.self, from: Data(#"{"a":"1","a":"3"}"#.utf8)).a == "1")
        #expect(members["c"].map { String(decoding: $0, as: UTF8.self) } == #"{"x":1,"x":2}"#)
    }

    @Test("an optional string is absent or null, or a string; any other type is not one")
    func optionalStrings() {
        #expect(members.optionalString("a") == .some("1"))
        #expect(members.optionalString("b") == .some(nil))
        #expect(members.optionalString("missing") == .some(nil))
        #expect(members.optionalString("c") == nil)
        #expect(members.optionalString("d") == nil)
        #expect(members.optionalString("e") == nil)
        #expect(members.strings("e") == ["p", "q"])
        #expect(members.string("d") == nil)
    }

    @Test("anything but one JSON object is refused", arguments: ["[]", "null", #""a""#, "{", #"{"a":1} {}"#, ""])
    func refused(_ body: String) {
        #expect(throws: JSONMembers.Malformed.self) { try JSONMembers(Array(body.utf8)) }
    }
}
