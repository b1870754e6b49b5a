import Crypto
import WebAuthn

/// The steps inside the assertion and registration paths, each timed on its own through the public API,
/// so `bench verify --breakdown` can say where verification time goes beyond the signature check.
struct BenchBreakdown {
    let fixtures: BenchFixtures

    func phases() throws(CommandError) -> [BenchClock.Phase] {
        let fixtures = fixtures
        guard let assertion = try? AuthenticationCredential.parse(fixtures.assertionJSON),
            let registration = try? RegistrationCredential.parse(fixtures.packedSelfRegistrationJSON),
            let key = try? COSEKey(bytes: fixtures.storedPublicKey),
            let verifier = try? SignatureVerifier(coseKey: key)
        else {
            throw CommandError(code: "internalError", message: "the benchmark fixtures do not parse", exitStatus: 1)
        }
        let clientData = assertion.response.clientDataJSON.bytes
        let authData = assertion.response.authenticatorData.bytes
        let attestationObject = registration.response.attestationObject.bytes
        return [
            BenchClock.Phase("  assertion: AuthenticationCredential.parse (JSON)") {
                (try? AuthenticationCredential.parse(fixtures.assertionJSON)) != nil
            },
            BenchClock.Phase("  assertion: CollectedClientData(bytes:)") {
                (try? CollectedClientData(bytes: clientData)) != nil
            },
            BenchClock.Phase("  assertion: AuthenticatorData(bytes:)") {
                (try? AuthenticatorData(bytes: authData)) != nil
            },
            BenchClock.Phase("  assertion: COSEKey + SignatureVerifier (key import)") {
                guard let key = try? COSEKey(bytes: fixtures.storedPublicKey) else { return false }
                return (try? SignatureVerifier(coseKey: key)) != nil
            },
            BenchClock.Phase("  assertion: SHA-256(clientDataJSON) + concat") {
                var signed = authData
                signed.append(contentsOf: SHA256.hash(data: clientData))
                return signed.count == fixtures.assertionSignedData.count
            },
            BenchClock.Phase("  assertion: SignatureVerifier.isValidSignature") {
                verifier.isValidSignature(fixtures.assertionSignature, for: fixtures.assertionSignedData)
            },
            BenchClock.Phase("  registration: RegistrationCredential.parse (JSON)") {
                (try? RegistrationCredential.parse(fixtures.packedSelfRegistrationJSON)) != nil
            },
            BenchClock.Phase("  registration: AttestationObject(bytes:)") {
                (try? AttestationObject(bytes: attestationObject)) != nil
            },
        ]
    }
}
