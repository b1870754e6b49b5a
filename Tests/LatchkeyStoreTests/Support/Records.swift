import Foundation

@testable import LatchkeyStore

/// Records for tests, with whole-second times (both backends keep at least millisecond precision).
enum Make {
    /// A fixed "now".
    static let now = Date(timeIntervalSince1970: 1_800_000_000)

    static func bytes(_ count: Int) -> Data {
        Data((0..<count).map { _ in UInt8.random(in: .min ... .max) })
    }

    static func user(name: String = "user-\(UUID().uuidString)", handle: Data = bytes(32)) -> StoredUser {
        StoredUser(userHandle: handle, name: name, displayName: "Display \(name)", createdAt: now)
    }

    static func credential(
        of userID: UUID,
        id: Data = bytes(32),
        signCount: UInt32 = 0,
        createdAt: Date = now
    ) -> StoredCredential {
        StoredCredential(
            id: id,
            userID: userID,
            publicKey: bytes(77),
            algorithm: -7,
            signCount: signCount,
            aaguid: UUID(),
            transports: ["internal", "hybrid"],
            backupEligible: true,
            backedUp: false,
            attestationFormat: "none",
            userVerified: true,
            discoverable: true,
            label: nil,
            createdAt: createdAt
        )
    }

    /// A credential whose optional and free-text columns are the awkward cases: a non-ASCII label with quotes, no
    /// known discoverability, two transports.
    static func unusualCredential(of userID: UUID, createdAt: Date) -> StoredCredential {
        var credential = credential(of: userID, createdAt: createdAt)
        credential.label = "Ünïcode \"label\""
        credential.discoverable = nil
        credential.transports = ["usb", "nfc"]
        return credential
    }

    static func ticket(expiresAt: Date = now.addingTimeInterval(300)) -> SpentTicket {
        SpentTicket(id: UUID().uuidString.replacingOccurrences(of: "-", with: "_"), expiresAt: expiresAt)
    }

    static func session(of userID: UUID, tokenHash: Data = bytes(32), expiresAt: Date = now.addingTimeInterval(3600))
        -> StoredSession
    {
        StoredSession(tokenHash: tokenHash, userID: userID, createdAt: now, expiresAt: expiresAt)
    }
}

extension LatchkeyStore {
    /// Creates and returns a user with this name.
    func createUser(named name: String) async throws -> StoredUser {
        let user = Make.user(name: name)
        try await createUser(user)
        return user
    }
}
