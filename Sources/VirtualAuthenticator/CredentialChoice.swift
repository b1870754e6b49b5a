/// Which credential to use when several fit an authentication request — the account chooser a browser shows.
public enum CredentialChoice: Sendable {
    /// The most recently created of the matching credentials.
    case mostRecent
    /// The matching credential with this ID.
    case credentialID([UInt8])
    /// The matching credential with this user handle.
    case userHandle([UInt8])
    /// The matching credential with this user name.
    case userName(String)
    /// Ask: the closure gets the matching credentials, oldest first, and returns one of them, or nil to cancel.
    case ask(@Sendable ([CredentialSource]) -> CredentialSource?)

    /// Picks from `candidates` (oldest first, not empty); nil when the choice matches none.
    func pick(from candidates: [CredentialSource]) -> CredentialSource? {
        switch self {
        case .mostRecent: candidates.last
        case .credentialID(let id): candidates.first { $0.id == id }
        case .userHandle(let handle): candidates.first { $0.userHandle == handle }
        case .userName(let name): candidates.first { $0.userName == name }
        case .ask(let chooser): chooser(candidates).flatMap { chosen in candidates.first { $0.id == chosen.id } }
        }
    }
}
