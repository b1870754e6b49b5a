import Foundation
import LatchkeyTestSupport
import Testing

/// The tests' scratch directories go away with their owner, files and subdirectories included.
@Suite("Test support: scratch directories")
struct ScratchDirectoryTests {
    @Test("a scratch directory exists while held and is removed, with what was written in it, when released")
    func removedWhenReleased() throws {
        var scratch: ScratchDirectory? = ScratchDirectory(prefix: "latchkey-scratch-test")
        let url = try #require(scratch?.url)
        #expect(url.lastPathComponent.hasPrefix("latchkey-scratch-test-"))
        let file = try #require(try scratch?.file(Array("key".utf8), suffix: ".p8"))
        #expect(file.hasSuffix(".p8") && file.hasPrefix(url.path))
        #expect(FileManager.default.contents(atPath: file) == Data("key".utf8))
        let nested = try #require(scratch?.path("a/b"))
        try FileManager.default.createDirectory(atPath: nested, withIntermediateDirectories: true)
        scratch = nil
        #expect(!FileManager.default.fileExists(atPath: url.path))
    }

    @Test("two scratch directories are distinct")
    func distinct() {
        let first = ScratchDirectory(prefix: "latchkey-scratch-test")
        let second = ScratchDirectory(prefix: "latchkey-scratch-test")
        #expect(first.url != second.url)
    }
}
