import Testing

@testable import WebAuthn

@Suite("Challenges")
struct ChallengeTests {
    @Test(
        "a challenge has the asked length and two are never equal",
        arguments: [1, 16, 32, 64, 255, 256, 257, 512, 1023])
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

    @Test("every byte is drawn, past each 256-byte call and at the end", arguments: [20, 256, 300, 1000])
    func wholeBufferIsFilled(_ count: Int) {
        // A stretch left unfilled would stay zero in most of these draws; 16 zero bytes in a row by chance is 2^-128.
        for _ in 0..<8 {
            let bytes = RelyingParty.generateChallenge(byteCount: count)
            #expect(!bytes.suffix(16).allSatisfy { $0 == 0 })
            #expect(!bytes.prefix(16).allSatisfy { $0 == 0 })
            if count > 272 { #expect(!bytes[256..<272].allSatisfy { $0 == 0 }) }
        }
    }

    @Test("the fallback generator fills lengths that are not a multiple of eight")
    func fallbackFillsEveryByte() {
        for count in [1, 7, 8, 9, 13, 32] {
            var bytes = [UInt8](repeating: 0, count: count + 16)
            bytes.withUnsafeMutableBytes {
                SecureRandom.fillFromSystemGenerator(UnsafeMutableRawBufferPointer(rebasing: $0[..<count]))
            }
            #expect(bytes.suffix(16).allSatisfy { $0 == 0 }, "nothing written past the buffer")
            if count >= 7 { #expect(!bytes.prefix(count).suffix(7).allSatisfy { $0 == 0 }, "the last bytes are drawn") }
        }
    }
}
