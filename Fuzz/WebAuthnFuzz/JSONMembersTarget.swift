@testable import WebAuthn

/// `JSONMembers`: a request body's top-level members, as the server reads them.
enum JSONMembersTarget {
    static func run(_ bytes: [UInt8]) {
        guard let members = try? JSONMembers(bytes) else { return }
        for name in ["ticket", "credential", "name", "username", "", "a"] {
            _ = members[name]
            _ = members.string(name)
        }
    }
}
