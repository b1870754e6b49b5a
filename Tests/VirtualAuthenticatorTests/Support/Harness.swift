import Foundation
import Testing
import VirtualAuthenticator
import WebAuthn

/// A relying party and a virtual authenticator wired together, running ceremonies through the JSON a
/// browser would send.
struct Harness {
    static let rpID = "example.com"
    static let origin = "https://example.com"
    static let alice = UserEntity(id: Array("alice-handle".utf8), name: "alice@example.com", displayName: "Alice")
    static let bob = UserEntity(id: Array("bob-handle".utf8), name: "bob@example.com", displayName: "Bob")

    var relyingParty: RelyingParty
    let authenticator: VirtualAuthenticator
    var origin = Harness.origin

    /// A relying party for example.com that accepts every algorithm the authenticator makes and trusts no
    /// attestation root (`configure` adjusts it), and an authenticator with the given configuration.
    init(
        _ configuration: VirtualAuthenticatorConfiguration = .testing(),
        store: any CredentialStore = InMemoryCredentialStore(),
        configure: (inout RelyingParty) -> Void = { _ in }
    ) {
        var relyingParty = RelyingParty(id: Harness.rpID, name: "Example", origins: [Harness.origin])
        relyingParty.algorithms = VirtualAuthenticator.supportedAlgorithms
        relyingParty.attestationTrust = .empty
        configure(&relyingParty)
        self.relyingParty = relyingParty
        self.authenticator = VirtualAuthenticator(configuration: configuration, store: store)
    }

    /// Creation options for `user`, asking for a discoverable credential and direct attestation; `algorithms`
    /// replaces `pubKeyCredParams`.
    func creationOptions(
        user: UserEntity = Harness.alice, algorithms: [COSEAlgorithm]? = nil,
        attestation: AttestationConveyancePreference = .direct, residentKey: ResidentKeyRequirement = .required,
        userVerification: UserVerificationRequirement? = nil,
        excludeCredentials: [PublicKeyCredentialDescriptor] = []
    ) -> PublicKeyCredentialCreationOptions {
        var options = relyingParty.beginRegistration(
            user: user, excludeCredentials: excludeCredentials, residentKey: residentKey,
            userVerification: userVerification, attestation: attestation
        )
        if let algorithms { options.pubKeyCredParams = algorithms.map { PublicKeyCredentialParameters(alg: $0) } }
        return options
    }

    /// `navigator.credentials.create()` at this harness's origin.
    func create(
        _ options: PublicKeyCredentialCreationOptions, topOrigin: String? = nil, tampering: Tampering = .none
    ) async throws -> RegistrationCredential {
        try await authenticator.register(options: options, origin: origin, topOrigin: topOrigin, tampering: tampering)
    }

    /// The relying party's verification of a registration, given the credential as JSON text.
    func finishRegistration(
        _ credential: RegistrationCredential, options: PublicKeyCredentialCreationOptions,
        at time: Date = Date()
    ) async throws -> VerifiedRegistration {
        try await relyingParty.finishRegistration(
            RegistrationCredential.parse(JSONEncoder().encode(credential)),
            expectedChallenge: options.challenge.bytes, at: time
        )
    }

    /// Registers `user` and returns the record the server stores.
    func registeredRecord(
        user: UserEntity = Harness.alice, algorithm: COSEAlgorithm = .es256,
        residentKey: ResidentKeyRequirement = .required
    ) async throws -> CredentialRecord {
        let options = creationOptions(user: user, algorithms: [algorithm], residentKey: residentKey)
        let credential = try await create(options)
        return Self.record(try await finishRegistration(credential, options: options), user: user)
    }

    static func record(_ registration: VerifiedRegistration, user: UserEntity = Harness.alice) -> CredentialRecord {
        CredentialRecord(
            id: registration.credentialID, publicKey: registration.publicKey, signCount: registration.signCount,
            userHandle: user.id.bytes, backupEligible: registration.backupEligible
        )
    }

    /// Request options naming `record` in allowCredentials (or none, for a username-less sign-in).
    func requestOptions(allowing records: [CredentialRecord] = [], userVerification: UserVerificationRequirement? = nil)
        -> PublicKeyCredentialRequestOptions
    {
        relyingParty.beginAuthentication(
            allowCredentials: records.map { PublicKeyCredentialDescriptor(id: $0.id) },
            userVerification: userVerification
        )
    }

    /// The relying party's verification of an assertion, given the credential as JSON text.
    func finishAuthentication(
        _ credential: AuthenticationCredential, options: PublicKeyCredentialRequestOptions, record: CredentialRecord,
        requireUserVerification: Bool? = nil
    ) throws -> VerifiedAuthentication {
        try relyingParty.finishAuthentication(
            json: JSONEncoder().encode(credential), expectedChallenge: options.challenge.bytes, credential: record,
            allowedCredentialIDs: options.allowCredentials?.map(\.id.bytes),
            requireUserVerification: requireUserVerification
        )
    }

    /// Signs in with `record` (listed in allowCredentials) and verifies the assertion.
    func signIn(
        _ record: CredentialRecord, tampering: Tampering = .none, requireUserVerification: Bool? = nil
    ) async throws -> VerifiedAuthentication {
        let options = requestOptions(allowing: [record])
        let credential = try await authenticator.authenticate(options: options, origin: origin, tampering: tampering)
        return try finishAuthentication(
            credential, options: options, record: record, requireUserVerification: requireUserVerification)
    }
}

extension VirtualAuthenticatorConfiguration {
    /// The default configuration with the process-wide RSA key (RSA key generation is slow).
    static func testing(
        attestation: AttestationMode = .none, _ adjust: (inout VirtualAuthenticatorConfiguration) -> Void = { _ in }
    ) -> VirtualAuthenticatorConfiguration {
        var configuration = VirtualAuthenticatorConfiguration(attestation: attestation, rsaKeySource: .sharedPerProcess)
        adjust(&configuration)
        return configuration
    }
}

/// One attestation root for the whole test run.
enum TestCA {
    static let root = Result { () throws(VirtualAuthenticatorError) in try AttestationCA.makeRoot() }
    static let other = Result { () throws(VirtualAuthenticatorError) in
        try AttestationCA.makeRoot(commonName: "Someone Else's Root")
    }

    /// Trust `root` for `format`, requiring a path to it.
    static func trusting(_ authority: AttestationCA, for format: String) -> AttestationTrust {
        AttestationTrust(
            anchorsByFormat: [format: [authority.rootCertificate]],
            policy: AttestationPolicy(.any, anchoredFormats: [format]))
    }
}

/// Public keys a relying party must refuse.
enum BadKeys {
    /// An ES256 key whose point is not on P-256.
    static let offCurveP256 = COSEKey(
        algorithm: .es256,
        parameters: .ec2(
            curve: COSEKey.Curve.p256, x: Array(repeating: 1, count: 32), y: Array(repeating: 2, count: 32))
    )
}

/// Expects `body` to fail with a ``WebAuthnError`` carrying `code`.
func expectWebAuthnError<T>(
    _ code: WebAuthnError.Code, sourceLocation: SourceLocation = #_sourceLocation,
    _ body: () async throws -> T
) async {
    let error = await #expect(throws: WebAuthnError.self, sourceLocation: sourceLocation) {
        _ = try await body()
    }
    #expect(error?.code == code, "\(error.map { "\($0)" } ?? "no error")", sourceLocation: sourceLocation)
}
