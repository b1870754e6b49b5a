/// Reads the big-endian, size-prefixed encoding of TPM 2.0 structures (TPM 2.0 Part 2), failing with
/// `attestation.tpm.<check>` on short input or trailing bytes.
struct TPMReader {
    private let bytes: [UInt8]
    private var offset = 0
    /// The structure being read, for messages (`pubArea`, `certInfo`).
    let structure: String
    /// The error check reported when the bytes do not fit the structure (`pubAreaMalformed`).
    let check: String

    init(_ bytes: [UInt8], structure: String, check: String) {
        self.bytes = bytes
        self.structure = structure
        self.check = check
    }

    /// An error coded `attestation.tpm.<check>`.
    func malformed(_ message: String) -> WebAuthnError {
        WebAuthnError(.attestation("tpm", check), "tpm \(structure) \(message)")
    }

    mutating func uint8(_ field: String) throws(WebAuthnError) -> UInt8 {
        try take(1, field)[0]
    }

    mutating func uint16(_ field: String) throws(WebAuthnError) -> UInt16 {
        UInt16(try unsigned(2, field))
    }

    mutating func uint32(_ field: String) throws(WebAuthnError) -> UInt32 {
        UInt32(try unsigned(4, field))
    }

    mutating func uint64(_ field: String) throws(WebAuthnError) -> UInt64 {
        try unsigned(8, field)
    }

    /// A `TPM2B_*` value: a UINT16 size, then that many bytes.
    mutating func sized(_ field: String) throws(WebAuthnError) -> [UInt8] {
        let count = Int(try uint16("\(field) size"))
        return try take(count, field)
    }

    /// Requires every byte to have been read.
    func finish() throws(WebAuthnError) {
        guard offset == bytes.count else {
            throw malformed("has \(bytes.count - offset) trailing bytes")
        }
    }

    private mutating func unsigned(_ count: Int, _ field: String) throws(WebAuthnError) -> UInt64 {
        try take(count, field).reduce(0) { $0 << 8 | UInt64($1) }
    }

    private mutating func take(_ count: Int, _ field: String) throws(WebAuthnError) -> [UInt8] {
        guard count <= bytes.count - offset else {
            throw malformed(
                "ends inside \(field) (needs \(count) bytes at offset \(offset), has \(bytes.count - offset))")
        }
        defer { offset += count }
        return Array(bytes[offset..<offset + count])
    }
}
