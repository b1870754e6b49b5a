import WebAuthn

/// The body of `POST /attestation/result`: a `ServerPublicKeyCredential` whose `response` is a
/// `ServerAuthenticatorAttestationResponse` (`clientDataJSON`, `attestationObject`). It is the L3
/// `RegistrationResponseJSON`, with `getClientExtensionResults` accepted for `clientExtensionResults`.
public typealias ServerAttestationResultRequest = RegistrationCredential

/// The body of `POST /assertion/result`: a `ServerPublicKeyCredential` whose `response` is a
/// `ServerAuthenticatorAssertionResponse` (`clientDataJSON`, `authenticatorData`, `signature`, `userHandle`).
public typealias ServerAssertionResultRequest = AuthenticationCredential
