// The browser's WebAuthn calls, taking the server's JSON options and giving back the credential JSON it verifies.
// Uses PublicKeyCredential.parseCreationOptionsFromJSON / parseRequestOptionsFromJSON and credential.toJSON() when
// the browser has them, and a base64url fallback otherwise.
import { decode, encode } from "./base64url.js";

const hasParsers = () =>
  typeof PublicKeyCredential !== "undefined" &&
  typeof PublicKeyCredential.parseCreationOptionsFromJSON === "function" &&
  typeof PublicKeyCredential.parseRequestOptionsFromJSON === "function";

function withIDs(descriptors) {
  return (descriptors || []).map((d) => ({ ...d, id: decode(d.id) }));
}

function creationOptions(json) {
  if (hasParsers()) return PublicKeyCredential.parseCreationOptionsFromJSON(json);
  return {
    ...json,
    challenge: decode(json.challenge),
    user: { ...json.user, id: decode(json.user.id) },
    excludeCredentials: withIDs(json.excludeCredentials),
  };
}

function requestOptions(json) {
  if (hasParsers()) return PublicKeyCredential.parseRequestOptionsFromJSON(json);
  return { ...json, challenge: decode(json.challenge), allowCredentials: withIDs(json.allowCredentials) };
}

function credentialJSON(credential) {
  if (typeof credential.toJSON === "function") return credential.toJSON();
  const response = credential.response;
  const json = {
    id: credential.id,
    rawId: encode(credential.rawId),
    type: credential.type,
    authenticatorAttachment: credential.authenticatorAttachment ?? null,
    clientExtensionResults: credential.getClientExtensionResults(),
    response: { clientDataJSON: encode(response.clientDataJSON) },
  };
  if (response.attestationObject) {
    json.response.attestationObject = encode(response.attestationObject);
    json.response.transports = typeof response.getTransports === "function" ? response.getTransports() : [];
  } else {
    json.response.authenticatorData = encode(response.authenticatorData);
    json.response.signature = encode(response.signature);
    json.response.userHandle = response.userHandle ? encode(response.userHandle) : null;
  }
  return json;
}

/** Whether the browser can offer passkeys in the username field's autofill (conditional mediation). */
export async function conditionalMediationAvailable() {
  if (typeof PublicKeyCredential === "undefined") return false;
  if (typeof PublicKeyCredential.isConditionalMediationAvailable !== "function") return false;
  try {
    return await PublicKeyCredential.isConditionalMediationAvailable();
  } catch {
    return false;
  }
}

/** Whether this browser can use passkeys at all. */
export function supported() {
  return typeof PublicKeyCredential !== "undefined" && !!navigator.credentials;
}

/**
 * navigator.credentials.create for the server's creation options JSON; the RegistrationResponseJSON.
 * `mediation` "conditional" creates the passkey without a dialog (an automatic upgrade after a password sign-in);
 * `signal` aborts.
 */
export async function create(optionsJSON, { mediation, signal } = {}) {
  const request = { publicKey: creationOptions(optionsJSON) };
  if (mediation) request.mediation = mediation;
  if (signal) request.signal = signal;
  const credential = await navigator.credentials.create(request);
  return credentialJSON(credential);
}

/** Whether the browser can create a passkey conditionally (PublicKeyCredential.getClientCapabilities()). */
export async function conditionalCreateAvailable() {
  if (typeof PublicKeyCredential === "undefined") return false;
  if (typeof PublicKeyCredential.getClientCapabilities !== "function") return false;
  try {
    const capabilities = await PublicKeyCredential.getClientCapabilities();
    return capabilities?.conditionalCreate === true;
  } catch {
    return false;
  }
}

// ---- the signal API: tell the passkey provider what the server accepts -------------------------------------
// Each call is made only where the browser has it, and its failure is ignored: it is a hint to the provider.

async function signal(name, argument) {
  if (typeof PublicKeyCredential === "undefined" || typeof PublicKeyCredential[name] !== "function") return false;
  try {
    await PublicKeyCredential[name](argument);
    return true;
  } catch {
    return false;
  }
}

/** The server does not know this credential: the provider may hide or delete it. */
export function signalUnknownCredential(rpId, credentialId) {
  return signal("signalUnknownCredential", { rpId, credentialId });
}

/** The server's `signals` ({rpId, userId, allAcceptedCredentialIds, name, displayName}): every accepted
 *  credential of the user, and the user's current names. */
export async function signalAccount(signals) {
  if (!signals) return;
  const { rpId, userId, allAcceptedCredentialIds, name, displayName } = signals;
  await signal("signalAllAcceptedCredentials", { rpId, userId, allAcceptedCredentialIds });
  await signal("signalCurrentUserDetails", { rpId, userId, name, displayName });
}

/**
 * navigator.credentials.get for the server's request options JSON; the AuthenticationResponseJSON.
 * `mediation` "conditional" waits for the person to pick a passkey from autofill; `signal` aborts.
 */
export async function get(optionsJSON, { mediation, signal } = {}) {
  const request = { publicKey: requestOptions(optionsJSON) };
  if (mediation) request.mediation = mediation;
  if (signal) request.signal = signal;
  const credential = await navigator.credentials.get(request);
  return credentialJSON(credential);
}
