/// The state of a Sign in with Apple credential, as `ASAuthorizationAppleIDProvider.getCredentialState`
/// reports it, and what the app should do about it.
public enum AppleIDCredentialState: Sendable, Hashable, CaseIterable {
    /// Still valid: stay signed in.
    case authorized
    /// The user stopped using Sign in with Apple for this app: sign out.
    case revoked
    /// No such credential for this user: sign out.
    case notFound
    /// The app moved to another team: the user identifier must be migrated on the server.
    case transferred

    /// The `ASAuthorizationAppleIDProvider.CredentialState` raw value (0 revoked, 1 authorized,
    /// 2 notFound, 3 transferred); nil for a value this version does not know.
    public init?(rawValue: Int) {
        switch rawValue {
        case 0: self = .revoked
        case 1: self = .authorized
        case 2: self = .notFound
        case 3: self = .transferred
        default: return nil
        }
    }

    /// Whether the app should end the local session.
    public var requiresSignOut: Bool {
        switch self {
        case .authorized, .transferred: false
        case .revoked, .notFound: true
        }
    }
}
