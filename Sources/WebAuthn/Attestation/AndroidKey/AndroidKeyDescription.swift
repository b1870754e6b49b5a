import SwiftASN1

/// The Android Keystore key description (attestation extension 1.3.6.1.4.1.11129.2.1.17): the
/// `KeyDescription` SEQUENCE of the Android key attestation schema, read down to the fields WebAuthn checks.
///
/// ```
/// KeyDescription ::= SEQUENCE {
///     attestationVersion INTEGER, attestationSecurityLevel SecurityLevel,
///     keymasterVersion INTEGER, keymasterSecurityLevel SecurityLevel,
///     attestationChallenge OCTET STRING, uniqueId OCTET STRING,
///     softwareEnforced AuthorizationList, teeEnforced AuthorizationList }
/// ```
struct AndroidKeyDescription: DERParseable, Sendable, Hashable {
    static let extensionOID: ASN1ObjectIdentifier = [1, 3, 6, 1, 4, 1, 11129, 2, 1, 17]

    let attestationVersion: Int
    /// SecurityLevel: 0 software, 1 trusted environment, 2 StrongBox.
    let attestationSecurityLevel: Int
    let keymasterVersion: Int
    let keymasterSecurityLevel: Int
    let attestationChallenge: [UInt8]
    let uniqueID: [UInt8]
    let softwareEnforced: AndroidAuthorizationList
    let teeEnforced: AndroidAuthorizationList

    init(derEncoded node: ASN1Node) throws {
        (
            attestationVersion, attestationSecurityLevel, keymasterVersion, keymasterSecurityLevel,
            attestationChallenge, uniqueID, softwareEnforced, teeEnforced
        ) = try DER.sequence(node, identifier: .sequence) { nodes in
            (
                try Int(derEncoded: &nodes),
                try Int(derEncoded: &nodes, withIdentifier: .enumerated),
                try Int(derEncoded: &nodes),
                try Int(derEncoded: &nodes, withIdentifier: .enumerated),
                Array(try ASN1OctetString(derEncoded: &nodes).bytes),
                Array(try ASN1OctetString(derEncoded: &nodes).bytes),
                try AndroidAuthorizationList(derEncoded: &nodes),
                try AndroidAuthorizationList(derEncoded: &nodes)
            )
        }
    }
}

/// An `AuthorizationList` of the Android key attestation schema: a SEQUENCE of optional, explicitly tagged
/// fields in ascending tag order. Only the tags WebAuthn checks are read; the others are skipped.
struct AndroidAuthorizationList: DERParseable, Sendable, Hashable {
    /// KM_PURPOSE_SIGN.
    static let purposeSign = 2
    /// KM_ORIGIN_GENERATED.
    static let originGenerated = 0

    /// `[1] purpose`: SET OF INTEGER.
    private(set) var purposes: [Int]?
    /// `[600] allApplications`: NULL; present when the key may be used by every application.
    private(set) var allApplications = false
    /// `[702] origin`: INTEGER.
    private(set) var origin: Int?

    init(derEncoded node: ASN1Node) throws {
        self = try DER.sequence(node, identifier: .sequence) { nodes in
            var list = AndroidAuthorizationList()
            var previousTag: UInt?
            while let field = nodes.next() {
                let tag = field.identifier.tagNumber
                guard field.identifier.tagClass == .contextSpecific else {
                    throw ASN1Error.unexpectedFieldType(field.identifier)
                }
                if let previousTag, tag <= previousTag {
                    throw ASN1Error.invalidASN1Object(
                        reason: "AuthorizationList tag [\(tag)] follows [\(previousTag)]: tags must ascend")
                }
                previousTag = tag
                switch tag {
                case 1:
                    list.purposes = try DER.explicitlyTagged(field, tagNumber: 1, tagClass: .contextSpecific) { value in
                        try DER.set(of: Int.self, identifier: .set, rootNode: value)
                    }
                case 600:
                    try DER.explicitlyTagged(field, tagNumber: 600, tagClass: .contextSpecific) { value in
                        _ = try ASN1Null(derEncoded: value)
                    }
                    list.allApplications = true
                case 702:
                    list.origin = try DER.explicitlyTagged(field, tagNumber: 702, tagClass: .contextSpecific) { value in
                        try Int(derEncoded: value)
                    }
                default:
                    continue
                }
            }
            return list
        }
    }

    private init() {}
}
