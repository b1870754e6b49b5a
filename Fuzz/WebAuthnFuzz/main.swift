// The WebAuthn parsers' libFuzzer targets, one binary: `LATCHKEY_FUZZ_TARGET` names the target (scripts/fuzz.sh sets it).
// Built only with LATCHKEY_FUZZ set, with `-sanitize=fuzzer,address -enable-testing` (see docs/FUZZING.md).
import FuzzSupport

FuzzRunner.run(targets: [
    "cbor": CBORTarget.run,
    "authenticator-data": AuthenticatorDataTarget.run,
    "attestation-object": AttestationObjectTarget.run,
    "attestation-packed": AttestationStatementTarget.packed,
    "attestation-fido-u2f": AttestationStatementTarget.fidoU2F,
    "attestation-apple": AttestationStatementTarget.apple,
    "attestation-tpm": AttestationStatementTarget.tpm,
    "attestation-android-key": AttestationStatementTarget.androidKey,
    "attestation-android-safetynet": AttestationStatementTarget.androidSafetyNet,
    "attestation-compound": AttestationStatementTarget.compound,
    "tpm-structures": TPMStructuresTarget.run,
    "android-key-description": AndroidKeyDescriptionTarget.run,
    "cose-key": COSEKeyTarget.run,
    "client-data": ClientDataTarget.run,
    "credential-json": CredentialJSONTarget.run,
    "json-members": JSONMembersTarget.run,
    "safetynet-jws": SafetyNetJWSTarget.run,
    "mds-blob": MetadataBLOBTarget.run,
    "certificate-chain": CertificateChainTarget.run,
])
