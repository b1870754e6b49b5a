import Testing
import WebAuthn

@Suite("Challenges")
struct ChallengeTests {
    @Test("a challenge has the asked length and two are never equal", arguments: [1, 16, 32, 64, 1023])
    func lengthAndUniqueness(_ count: Int) {
        let first = RelyingParty.generateChallenge(byteCount: count)
        let second = RelyingParty.generateChallenge(byteCount: count)
        #expect(first.count == count)
        if count >= 16 { #expect(first != second) }
    }

    @Test("zero bytes is an empty challenge, not a crash")
    func empty() {
        #expect(RelyingParty.generateChallenge(byteCount: 0).isEmpty)
    }

    @Test("the bytes are spread over all values (a stuck generator would fail)")
    func spread() {
        let bytes = RelyingParty.generateChallenge(byteCount: 4096)
        #expect(Set(bytes).count > 200)
    }
}
