import CBOR
import Foundation
import SwiftASN1
import X509

/// Verifies one attestation statement format (WebAuthn §8). Each format lives in its own file and type.
public protocol AttestationStatementVerifier: Sendable {
    /// The attestation statement format identifier, e.g. `packed`.
    var format: String { get }
    /// Checks the statement and says what kind of attestation it is and how far it is trusted.
    /// Throws a ``WebAuthnError`` (`attestation.<format>.<check>` or `certificate.*`) when it does not verify.
    func verify(_ context: AttestationContext) async throws(WebAuthnError) -> VerifiedAttestation
}

/// Everything a format verifier needs: the statement, what it signs over, and the trust settings.
public struct AttestationContext: Sendable {
    /// The attestation statement format identifier.
    public let format: String
    /// The statement of a map format (every format but `compound`, whose statement is empty here).
    public let statement: CBORMap
    /// `attStmt` as sent: the map, or the array of sub-statements of a `compound` attestation.
    public let rawStatement: CBORValue
    /// The registration's authenticator data.
    public let authenticatorData: AuthenticatorData
    /// SHA-256 of `clientDataJSON`, which the statement signs with the authenticator data.
    public let clientDataHash: [UInt8]
    /// The new credential from the authenticator data.
    public let credential: AttestedCredentialData
    /// The time at which certificates (and SafetyNet timestamps) are judged.
    public let verificationTime: Date
    /// The trust anchors for this format: those configured in ``trust`` plus the attestation roots of
    /// ``metadata``, computed once by ``AttestationTrust`` for this statement and for every `compound` sub-statement.
    public let anchors: [Certificate]?
    /// The relying party's whole trust configuration, for formats that verify statements of other formats (`compound`).
    public let trust: AttestationTrust
    /// The authenticator's metadata entry, when ``AttestationTrust/metadata`` has one; its roots are among ``anchors``.
    public let metadata: MetadataEntry?
    /// The format-specific options (SafetyNet windows, android-key authorizations).
    public let options: AttestationOptions
    /// The credential public key made ready to verify, when its algorithm is one Latchkey verifies. The ceremony
    /// builds it once; self attestation uses it instead of importing the key again.
    public let credentialKeyVerifier: SignatureVerifier?

    /// A context as given.
    public init(
        format: String, statement: CBORMap, rawStatement: CBORValue? = nil, authenticatorData: AuthenticatorData,
        clientDataHash: [UInt8], credential: AttestedCredentialData, verificationTime: Date,
        trust: AttestationTrust = .empty, metadata: MetadataEntry? = nil, options: AttestationOptions,
        credentialKeyVerifier: SignatureVerifier? = nil
    ) {
        self.credentialKeyVerifier = credentialKeyVerifier
        self.format = format
        self.statement = statement
        self.rawStatement = rawStatement ?? .map(statement)
        self.trust = trust
        self.authenticatorData = authenticatorData
        self.clientDataHash = clientDataHash
        self.credential = credential
        self.verificationTime = verificationTime
        self.metadata = metadata
        self.anchors = trust.anchors(for: format, metadata: metadata)
        self.options = options
    }

    /// The context for a sub-statement of a `compound` attestation: the same registration, trust and metadata,
    /// with `format`'s anchors.
    public func substatement(format: String, statement: CBORMap) -> AttestationContext {
        AttestationContext(
            format: format, statement: statement, authenticatorData: authenticatorData, clientDataHash: clientDataHash,
            credential: credential, verificationTime: verificationTime, trust: trust, metadata: metadata,
            options: options, credentialKeyVerifier: credentialKeyVerifier
        )
    }

    /// `authenticatorData || clientDataHash`: what most formats sign.
    public var signedData: [UInt8] { authenticatorData.rawValue + clientDataHash }

    /// An error coded `attestation.<format>.<check>`.
    public func failure(_ check: String, _ message: String) -> WebAuthnError {
        WebAuthnError(.attestation(format, check), message)
    }

    /// Reads the statement's `alg` as a COSE algorithm.
    public func algorithm() throws(WebAuthnError) -> COSEAlgorithm {
        guard let alg = statement[text: "alg"]?.intValue else {
            throw failure("malformed", "\(format) attestation statement has no integer \"alg\"")
        }
        return COSEAlgorithm(rawValue: alg)
    }

    /// Reads a byte-string field of the statement.
    public func bytes(_ field: String) throws(WebAuthnError) -> [UInt8] {
        guard let value = statement[text: field]?.bytesValue else {
            throw failure("malformed", "\(format) attestation statement has no byte string \"\(field)\"")
        }
        return value
    }

    /// Parses the statement's `x5c` (leaf first). Nil when absent; an error when present but empty or bad.
    ///
    /// An intermediate that swift-certificates cannot parse (FIDO conformance-tool chains carry negative serial
    /// numbers) is left out of the chain rather than failing the statement: no trusted path can run through it,
    /// so the statement still verifies but is trusted only if the remaining certificates reach an anchor.
    /// The leaf, whose key and extensions the formats check, must parse.
    public func certificateChain() throws(WebAuthnError) -> [Certificate]? {
        guard let value = statement[text: "x5c"] else { return nil }
        guard let items = value.arrayValue, !items.isEmpty else {
            throw failure("malformed", "\(format) attestation statement x5c is not a non-empty array")
        }
        var chain: [Certificate] = []
        for (index, item) in items.enumerated() {
            guard let der = item.bytesValue else {
                throw failure("malformed", "\(format) x5c[\(index)] is not a byte string")
            }
            do {
                chain.append(try Certificate(checkedDEREncoded: der))
            } catch  where index > 0 {
                continue
            } catch {
                throw WebAuthnError(.certificateMalformed, "\(format) x5c[\(index)] is not a valid X.509 certificate")
            }
        }
        return chain
    }

    /// Checks the chain's validity periods and, where anchors are configured, its path to one of them.
    public func evaluateTrust(of chain: [Certificate], extraCriticalExtensions: [ASN1ObjectIdentifier] = [])
        async throws(WebAuthnError) -> TrustStatus
    {
        try await CertificatePath(chain: chain, format: format)
            .evaluate(at: verificationTime, anchors: anchors, extraCriticalExtensions: extraCriticalExtensions)
    }

    /// Requires the certificate's id-fido-gen-ce-aaguid extension, when present, to match the authenticator data's AAGUID.
    public func checkAAGUIDExtension(of certificate: Certificate, certificateName: String = "attestation certificate")
        throws(WebAuthnError)
    {
        guard let ext = certificate.extensions[oid: .fidoAAGUID] else { return }
        if ext.critical {
            throw failure("aaguidExtensionCritical", "the \(certificateName)'s AAGUID extension must not be critical")
        }
        let value = (try? ASN1OctetString(derEncoded: ext.value)).map { Array($0.bytes) } ?? []
        guard value.count == 16, value == credential.aaguid.bytes else {
            throw failure(
                "aaguidMismatch",
                "\(certificateName) id-fido-gen-ce-aaguid (1.3.6.1.4.1.45724.1.1.4) does not match the AAGUID in authData"
            )
        }
    }
}

/// The attestation types of WebAuthn §6.5.4.
public enum AttestationType: String, Sendable, Hashable, Codable {
    /// No attestation.
    case none
    /// Self attestation: signed with the credential key.
    case `self` = "self"
    /// Basic attestation: an attestation certificate shared by a batch.
    case basic
    /// Attestation CA: a certificate per key from a CA (TPM).
    case attCA
    /// Anonymization CA: a per-credential certificate (Apple).
    case anonCA
}

/// How far an attestation's certificate path is trusted.
public enum TrustStatus: Sendable, Hashable {
    /// There is no certificate path (none, self).
    case notApplicable
    /// The path leads to this configured anchor.
    case trusted(anchor: Certificate)
    /// The statement verified, but no configured anchor vouches for it.
    case untrusted(reason: String)

    /// Whether the path leads to a trusted root.
    public var isTrusted: Bool {
        if case .trusted = self { return true }
        return false
    }

    /// Why the path is not trusted, for error messages.
    var untrustedReason: String {
        switch self {
        case .notApplicable: "there is no certificate path"
        case .trusted: "it is trusted"
        case .untrusted(let reason): reason
        }
    }
}

/// The outcome of a verified attestation statement.
public struct VerifiedAttestation: Sendable {
    /// The attestation statement format identifier.
    public var format: String
    /// The attestation type the statement proves.
    public var type: AttestationType
    /// The attestation certificates as sent (`x5c`, leaf first); empty for none and self.
    public var trustPath: [Certificate]
    /// Whether the trust path leads to a trusted root, and why not.
    public var trust: TrustStatus
    /// The verified sub-statements of a `compound` attestation, in the order sent; empty for other formats.
    public var components: [VerifiedAttestation]

    /// A result as given.
    public init(
        format: String, type: AttestationType, trustPath: [Certificate] = [], trust: TrustStatus = .notApplicable,
        components: [VerifiedAttestation] = []
    ) {
        self.format = format
        self.type = type
        self.trustPath = trustPath
        self.trust = trust
        self.components = components
    }
}

/// Format-specific knobs.
public struct AttestationOptions: Sendable, Hashable {
    /// SafetyNet: reject when `ctsProfileMatch` is false (default true).
    public var safetyNetEnforceCTSProfileMatch: Bool = true
    /// SafetyNet: how old `timestampMs` may be, relative to the verification time.
    public var safetyNetMaximumAge: TimeInterval = 60
    /// SafetyNet: how far in the future `timestampMs` may be (clock skew).
    public var safetyNetAllowedClockSkew: TimeInterval = 60
    /// SafetyNet: skip the timestamp window (for replaying old captures; never in production).
    public var safetyNetSkipTimestampCheck: Bool = false
    /// android-key: where the key description must show a generated signing key. The default,
    /// ``AndroidKeyAuthorizationPolicy/statedValues``, rejects wrong values but accepts lists that state none.
    public var androidKeyAuthorizations: AndroidKeyAuthorizationPolicy = .statedValues

    /// The defaults.
    public init() {}
}

extension ASN1ObjectIdentifier {
    /// id-fido-gen-ce-aaguid.
    public static let fidoAAGUID: ASN1ObjectIdentifier = [1, 3, 6, 1, 4, 1, 45724, 1, 1, 4]
}
