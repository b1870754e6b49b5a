/// Which authorization lists of an Android key description must show that the credential key was generated
/// in the keystore (`origin` is KM_ORIGIN_GENERATED) for signing (`purpose` contains KM_PURPOSE_SIGN),
/// WebAuthn §8.4 step 4.
///
/// Whatever the policy, a list that states an origin or purpose must state the right one, and neither list
/// may contain `allApplications`.
public enum AndroidKeyAuthorizationPolicy: Sendable, Hashable {
    /// `teeEnforced` must state both: only keys that a trusted execution environment or StrongBox vouches
    /// for are accepted. py_webauthn and go-webauthn check this way.
    case teeEnforced
    /// `teeEnforced` or `softwareEnforced` must state each: software-backed keys are accepted too
    /// (WebAuthn §8.4's rule for relying parties that accept them; webauthn4j's default).
    case teeOrSoftwareEnforced
    /// Lists that state neither are accepted: only stated values are checked. The W3C Level 3 test vector
    /// has two empty lists, and SimpleWebAuthn checks neither field.
    case statedValues

    /// Lists whose stated values are checked.
    func consulted(_ description: AndroidKeyDescription) -> [AndroidAuthorizationList] {
        switch self {
        case .teeEnforced: [description.teeEnforced]
        case .teeOrSoftwareEnforced, .statedValues: [description.teeEnforced, description.softwareEnforced]
        }
    }

    /// Whether some consulted list must state origin and purpose.
    var requiresStatement: Bool { self != .statedValues }
}
