extension WebAuthnError.Code {
    // FIDO Metadata Service (MDS3)

    /// The BLOB is not a JWS with the MDS3 payload, or a CRL or date in it cannot be read.
    public static let metadataMalformed: Self = "metadata.malformed"
    /// The BLOB's JWS signature does not verify with its leaf certificate.
    public static let metadataBadSignature: Self = "metadata.badSignature"
    /// The BLOB's `x5c` does not chain to the configured root at the verification time (or a CRL for it is not
    /// signed by its issuer).
    public static let metadataUntrustedChain: Self = "metadata.untrustedChain"
    /// The BLOB (or a CRL) is past its `nextUpdate`, or its `no` is not newer than the one already loaded.
    public static let metadataStale: Self = "metadata.stale"
    /// A certificate in the BLOB's chain is listed in its issuer's CRL.
    public static let metadataRevoked: Self = "metadata.revoked"
    /// The BLOB could not be read from its file or URL.
    public static let metadataUnavailable: Self = "metadata.unavailable"
    /// A status report says the authenticator is revoked or compromised (registration refused under every policy).
    public static let metadataAuthenticatorCompromised: Self = "metadata.authenticatorCompromised"
    /// The attestation policy requires a FIDO certification the authenticator's metadata does not show.
    public static let metadataNotCertified: Self = "metadata.notCertified"
}
