#if canImport(Darwin)
import Darwin
#elseif canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif

/// Random bytes from the operating system's CSPRNG, filled with one call for the whole buffer.
///
/// The `Crypto` module's random values (`SymmetricKey(size:)`, `AES.GCM.Nonce()`) draw eight bytes per
/// `SystemRandomNumberGenerator.next()`, which on Linux is one `getrandom(2)` system call each: four for a 32-byte
/// challenge. A sign-in made about eleven such calls. Here a value of up to 256 bytes is one `getentropy(3)` (one
/// `getrandom(2)`) on Linux and one `arc4random_buf` on Apple platforms.
enum SecureRandom {
    /// `count` random bytes.
    static func bytes(count: Int) -> [UInt8] {
        guard count > 0 else { return [] }
        return [UInt8](unsafeUninitializedCapacity: count) { buffer, initialized in
            fill(UnsafeMutableRawBufferPointer(buffer))
            initialized = count
        }
    }

    /// Fills `buffer` with random bytes.
    static func fill(_ buffer: UnsafeMutableRawBufferPointer) {
        guard let base = buffer.baseAddress, buffer.count > 0 else { return }
        #if canImport(Darwin)
        arc4random_buf(base, buffer.count)
        #elseif canImport(Glibc) || canImport(Musl)
        // getentropy(3) is getrandom(2) for at most 256 bytes a call: it never returns fewer, and waits only until
        // the kernel's pool is first seeded.
        var filled = 0
        while filled < buffer.count {
            let chunk = min(256, buffer.count - filled)
            if getentropy(base + filled, chunk) == 0 {
                filled += chunk
            } else if errno == EINTR {
                continue
            } else {
                // No getrandom(2) (a kernel before 3.17): the standard library's generator, eight bytes at a time.
                fillFromSystemGenerator(UnsafeMutableRawBufferPointer(rebasing: buffer[filled...]))
                return
            }
        }
        #else
        fillFromSystemGenerator(buffer)
        #endif
    }

    /// The fallback: the standard library's generator, eight bytes a call.
    static func fillFromSystemGenerator(_ buffer: UnsafeMutableRawBufferPointer) {
        var generator = SystemRandomNumberGenerator()
        var offset = 0
        while offset < buffer.count {
            withUnsafeBytes(of: generator.next()) { word in
                let take = min(word.count, buffer.count - offset)
                UnsafeMutableRawBufferPointer(rebasing: buffer[offset..<(offset + take)])
                    .copyMemory(from: UnsafeRawBufferPointer(rebasing: word[..<take]))
                offset += take
            }
        }
    }
}
