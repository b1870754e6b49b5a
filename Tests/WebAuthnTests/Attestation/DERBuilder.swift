/// Builds the few DER values the attestation tests put into certificate extensions (TLV with definite lengths).
enum DERBuilder {
    static func tlv(_ identifier: [UInt8], _ content: [UInt8]) -> [UInt8] {
        identifier + length(content.count) + content
    }

    static func sequence(_ elements: [UInt8]...) -> [UInt8] { tlv([0x30], elements.flatMap { $0 }) }
    static func set(_ elements: [UInt8]...) -> [UInt8] { tlv([0x31], elements.flatMap { $0 }) }
    static func octetString(_ bytes: [UInt8]) -> [UInt8] { tlv([0x04], bytes) }
    static let null: [UInt8] = [0x05, 0x00]

    /// A small non-negative INTEGER (or, with `tag` 0x0a, ENUMERATED).
    static func integer(_ value: Int, tag: UInt8 = 0x02) -> [UInt8] {
        var bytes: [UInt8] = []
        var rest = value
        repeat {
            bytes.insert(UInt8(rest & 0xff), at: 0)
            rest >>= 8
        } while rest > 0
        if let first = bytes.first, first & 0x80 != 0 { bytes.insert(0, at: 0) }
        return tlv([tag], bytes)
    }

    /// `[number] EXPLICIT` around `content` (context-specific, constructed; high tag numbers in base 128).
    static func explicit(_ number: Int, _ content: [UInt8]) -> [UInt8] {
        guard number >= 31 else { return tlv([0xa0 | UInt8(number)], content) }
        var digits: [UInt8] = [UInt8(number & 0x7f)]
        var rest = number >> 7
        while rest > 0 {
            digits.insert(UInt8(rest & 0x7f) | 0x80, at: 0)
            rest >>= 7
        }
        return tlv([0xbf] + digits, content)
    }

    private static func length(_ count: Int) -> [UInt8] {
        guard count >= 0x80 else { return [UInt8(count)] }
        var bytes: [UInt8] = []
        var rest = count
        while rest > 0 {
            bytes.insert(UInt8(rest & 0xff), at: 0)
            rest >>= 8
        }
        return [0x80 | UInt8(bytes.count)] + bytes
    }
}
