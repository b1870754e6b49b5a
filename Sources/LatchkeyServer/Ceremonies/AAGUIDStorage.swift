import Foundation
import WebAuthn

/// The store keeps AAGUIDs as Foundation UUIDs; these convert both ways.
extension AAGUID {
    /// The AAGUID as a Foundation UUID (all zeros if it is not 16 bytes).
    var uuid: UUID {
        var raw: uuid_t = UUID.zero.uuid
        guard bytes.count == MemoryLayout<uuid_t>.size else { return UUID.zero }
        withUnsafeMutableBytes(of: &raw) { $0.copyBytes(from: bytes) }
        return UUID(uuid: raw)
    }

    /// The AAGUID a stored UUID holds.
    init(_ uuid: UUID) {
        self.init(bytes: withUnsafeBytes(of: uuid.uuid) { Array($0) })
    }
}

extension UUID {
    /// `00000000-0000-0000-0000-000000000000`.
    static let zero = UUID(uuid: (0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0))
}
