import AppleSignIn
import Testing

@Suite("SecretBox: AES-GCM at rest")
struct SecretBoxTests {
    let key = [UInt8](repeating: 7, count: 32)

    @Test func roundTripsAndUsesAFreshNonceEachTime() throws {
        let box = try SecretBox(key: key)
        let first = try box.seal(text: "r.refresh-token", context: "user-1")
        let second = try box.seal(text: "r.refresh-token", context: "user-1")
        #expect(first != second)
        #expect(try box.open(text: first, context: "user-1") == "r.refresh-token")
        #expect(!first.contains("refresh"))
        #expect(String(describing: box) == "SecretBox(v1, key: <redacted>)", "the key never shows in a description")
    }

    @Test func aWrongKeyWrongContextOrTamperingFailsToOpen() throws {
        let box = try SecretBox(key: key)
        let sealed = try box.seal(Array("secret".utf8), context: Array("user-1".utf8))
        let otherBox = try SecretBox(key: [UInt8](repeating: 8, count: 32))
        var tampered = sealed
        tampered[tampered.count - 1] ^= 1
        var newVersion = sealed
        newVersion[0] = 2
        let user1 = Array("user-1".utf8)
        let attempts: [(box: SecretBox, sealed: [UInt8], context: [UInt8])] = [
            (otherBox, sealed, user1), (box, sealed, Array("user-2".utf8)), (box, tampered, user1),
            (box, newVersion, user1), (box, [], []), (box, [1, 2, 3], []),
        ]
        for attempt in attempts {
            do {
                _ = try attempt.box.open(attempt.sealed, context: attempt.context)
                Issue.record("opened")
            } catch {
                #expect(error.code == .secretBoxOpenFailed)
            }
        }
    }

    @Test func keysMustBe32Bytes() throws {
        for bad in [[UInt8](), [UInt8](repeating: 1, count: 16), [UInt8](repeating: 1, count: 33)] {
            #expect(
                throws: AppleSignInError(.secretBoxKeyInvalid, "the secrets key must be 32 bytes, not \(bad.count)")
            ) {
                try SecretBox(key: bad)
            }
        }
        _ = try SecretBox(base64Key: "BwcHBwcHBwcHBwcHBwcHBwcHBwcHBwcHBwcHBwcHBwc=")
        do {
            _ = try SecretBox(base64Key: "%%%")
            Issue.record("accepted")
        } catch {
            #expect(error.code == .secretBoxKeyInvalid)
        }
    }
}
