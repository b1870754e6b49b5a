/// `TPMS_ATTEST` (TPM 2.0 Part 2 §10.12.12) of type `TPM_ST_ATTEST_CERTIFY`: what the TPM signed when it
/// certified the credential key, as the `tpm` statement's `certInfo` carries it.
struct TPMSAttest: Sendable, Hashable {
    /// `TPM_GENERATED_VALUE`: the structure was made by a TPM.
    static let generatedValue: UInt32 = 0xff54_4347
    /// `TPM_ST_ATTEST_CERTIFY`.
    static let attestCertify: UInt16 = 0x8017

    /// `TPMS_CLOCK_INFO`. WebAuthn ignores it, so it is read but not judged: `safe` is kept as sent (a
    /// TPMI_YES_NO is 0 or 1, but the W3C test vector carries a placeholder 0x33).
    struct ClockInfo: Sendable, Hashable {
        let clock: UInt64
        let resetCount: UInt32
        let restartCount: UInt32
        let safe: UInt8
    }

    let qualifiedSigner: [UInt8]
    /// What the caller asked the TPM to include: the hash of `authData || clientDataHash` in WebAuthn.
    let extraData: [UInt8]
    let clockInfo: ClockInfo
    let firmwareVersion: UInt64
    /// `attested.certify.name`: the Name of the certified key (`nameAlg || H(pubArea)`).
    let attestedName: [UInt8]
    let attestedQualifiedName: [UInt8]

    /// Parses a certify attestation; the bytes must hold exactly one. A wrong magic value or type fails with
    /// `attestation.tpm.certInfoMagicInvalid` / `certInfoTypeInvalid`, any other misfit with `certInfoMalformed`.
    init(bytes: [UInt8]) throws(WebAuthnError) {
        var reader = TPMReader(bytes, structure: "certInfo", check: "certInfoMalformed")
        let magic = try reader.uint32("magic")
        guard magic == Self.generatedValue else {
            throw WebAuthnError(
                .attestation("tpm", "certInfoMagicInvalid"),
                "tpm certInfo magic is 0x\(Hex.encode(TPMTPublic.bigEndian(magic))), not TPM_GENERATED_VALUE (0xff544347)"
            )
        }
        let type = try reader.uint16("type")
        guard type == Self.attestCertify else {
            throw WebAuthnError(
                .attestation("tpm", "certInfoTypeInvalid"),
                "tpm certInfo type is 0x\(Hex.encode(TPMTPublic.bigEndian(type))), not TPM_ST_ATTEST_CERTIFY (0x8017)")
        }
        qualifiedSigner = try reader.sized("qualifiedSigner")
        extraData = try reader.sized("extraData")
        clockInfo = ClockInfo(
            clock: try reader.uint64("clockInfo.clock"), resetCount: try reader.uint32("clockInfo.resetCount"),
            restartCount: try reader.uint32("clockInfo.restartCount"), safe: try reader.uint8("clockInfo.safe")
        )
        firmwareVersion = try reader.uint64("firmwareVersion")
        attestedName = try reader.sized("attested.name")
        attestedQualifiedName = try reader.sized("attested.qualifiedName")
        try reader.finish()
    }
}
