import CBOR

/// The CBOR decoder, strict and with tags allowed; what decodes must encode again.
enum CBORTarget {
    static func run(_ bytes: [UInt8]) {
        for decoder in [CBORDecoder(), CBORDecoder(maximumDepth: 64, allowTags: true)] {
            guard let value = try? decoder.decode(bytes) else { continue }
            _ = CBOREncoder.encode(value)
            _ = try? decoder.decodePrefix(bytes)
        }
    }
}
