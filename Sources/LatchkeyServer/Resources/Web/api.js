// The server's /v1 API as the page uses it: same-origin fetch with the session cookie, JSON in and out.
// A failure throws an ApiError carrying the server's stable code and its message. A sensitive change the server answers
// 401 reauth.required is confirmed (a passkey, or the password) and tried once more.
import * as webauthn from "./webauthn.js";

export class ApiError extends Error {
  constructor(status, code, message, details = {}) {
    super(message);
    this.name = "ApiError";
    this.status = status;
    this.code = code;
    // For credential.notFound: {credentialId, rpId}, for PublicKeyCredential.signalUnknownCredential;
    // for reauth.required: {reauthentication}, how to confirm it is you.
    this.details = details;
  }
}

async function call(method, path, body) {
  const init = { method, credentials: "same-origin", headers: { Accept: "application/json" } };
  if (body !== undefined) {
    init.headers["Content-Type"] = "application/json";
    init.body = JSON.stringify(body);
  }
  let response;
  try {
    response = await fetch(path, init);
  } catch {
    throw new ApiError(0, "network", "Could not reach the server. Check your connection and try again.");
  }
  if (response.status === 204) return null;
  let json = null;
  try {
    json = await response.json();
  } catch {
    json = null;
  }
  if (!response.ok) {
    const error = json && json.error;
    throw new ApiError(
      response.status, error?.code ?? "http." + response.status, error?.message ?? `The server answered ${response.status}.`,
      { credentialId: error?.credentialId, rpId: error?.rpId, reauthentication: error?.reauthentication },
    );
  }
  return json;
}

/**
 * Confirms it is the user, in the first way the server offers: a passkey (the browser asks for it), or the password
 * (asked for with `askPassword`). The server answers a new session cookie.
 */
async function reauthenticate(options, askPassword) {
  if (options?.passkey) {
    const credential = await webauthn.get(options.passkey.options);
    return call("POST", "/v1/session/reauthenticate", { ticket: options.passkey.ticket, credential });
  }
  if (options?.password) {
    const password = await askPassword();
    if (!password) throw new ApiError(401, "reauth.cancelled", "Nothing was changed: you did not confirm it was you.");
    return call("POST", "/v1/session/reauthenticate/password", { password });
  }
  throw new ApiError(401, "reauth.required", "Sign in again (with Apple) to confirm it is you, then try once more.");
}

// How the page asks for the password (app.js sets a dialog); by default nothing is asked.
let passwordPrompt = async () => null;

/** A change that needs a recent confirmation: on reauth.required, confirm, then try it once more. */
async function sensitive(method, path, body) {
  try {
    return await call(method, path, body);
  } catch (error) {
    if (error.code !== "reauth.required" || !error.details.reauthentication) throw error;
    await reauthenticate(error.details.reauthentication, passwordPrompt);
    return call(method, path, body);
  }
}

const passkeyPath = (id) => "/v1/me/passkeys/" + encodeURIComponent(id);

export const api = {
  config: () => call("GET", "/v1/web/config"),
  me: () => call("GET", "/v1/me"),
  registrationOptions: (username, displayName) => call("POST", "/v1/passkeys/registration/options", { username, displayName }),
  registrationVerify: (ticket, credential) => call("POST", "/v1/passkeys/registration/verify", { ticket, credential }),
  authenticationOptions: (username) => call("POST", "/v1/passkeys/authentication/options", username ? { username } : {}),
  authenticationVerify: (ticket, credential) => call("POST", "/v1/passkeys/authentication/verify", { ticket, credential }),
  passkeys: () => call("GET", "/v1/me/passkeys"),
  renamePasskey: (id, name) => call("PATCH", passkeyPath(id), { name }),
  removePasskey: (id) => sensitive("DELETE", passkeyPath(id)),
  addPasskeyOptions: (name, mediation) => {
    const body = {};
    if (name) body.name = name;
    if (mediation) body.mediation = mediation;
    return sensitive("POST", "/v1/me/passkeys/registration/options", body);
  },
  passwordRegister: (username, displayName, password) => call("POST", "/v1/password/register", { username, displayName, password }),
  passwordSignIn: (username, password) => call("POST", "/v1/password/signin", { username, password }),
  addPasskeyVerify: (ticket, credential) => call("POST", "/v1/me/passkeys/registration/verify", { ticket, credential }),
  logout: () => call("POST", "/v1/session/logout"),
  deleteAccount: () => sensitive("DELETE", "/v1/account"),
  recoveryCodeStatus: () => call("GET", "/v1/me/recovery-codes"),
  generateRecoveryCodes: () => sensitive("POST", "/v1/me/recovery-codes"),
  recoveryOptions: (username, code) => call("POST", "/v1/recovery/options", { username, code }),
  recoveryLinkOptions: (token) => call("POST", "/v1/recovery/options", { token }),
  recoveryVerify: (ticket, credential) => call("POST", "/v1/recovery/verify", { ticket, credential }),
  emails: () => call("GET", "/v1/me/emails"),
  addEmail: (address) => sensitive("POST", "/v1/me/emails", { address }),
  verifyEmail: (address, code) => call("POST", "/v1/me/emails/verify", { address, code }),
  makePrimaryEmail: (address) => sensitive("POST", "/v1/me/emails/primary", { address }),
  removeEmail: (address) => sensitive("POST", "/v1/me/emails/remove", { address }),
  recoveryEmail: (email) => call("POST", "/v1/recovery/email", { email }),
  recoveryEmailOptions: (email, code) => call("POST", "/v1/recovery/options", { email, code }),
  sessions: () => call("GET", "/v1/sessions"),
  endSession: (id) => call("DELETE", "/v1/sessions/" + encodeURIComponent(id)),
  signOutEverywhere: () => sensitive("DELETE", "/v1/sessions"),
  /** How the page asks for the password when that is the way to confirm (a function answering the text, or null). */
  setPasswordPrompt: (prompt) => (passwordPrompt = prompt),
};
