// The server's /v1 API as the page uses it: same-origin fetch with the session cookie, JSON in and out.
// A failure throws an ApiError carrying the server's stable code and its message.

export class ApiError extends Error {
  constructor(status, code, message, details = {}) {
    super(message);
    this.name = "ApiError";
    this.status = status;
    this.code = code;
    // For credential.notFound: {credentialId, rpId}, for PublicKeyCredential.signalUnknownCredential.
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
      { credentialId: error?.credentialId, rpId: error?.rpId },
    );
  }
  return json;
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
  removePasskey: (id) => call("DELETE", passkeyPath(id)),
  addPasskeyOptions: (name, mediation) => {
    const body = {};
    if (name) body.name = name;
    if (mediation) body.mediation = mediation;
    return call("POST", "/v1/me/passkeys/registration/options", body);
  },
  passwordRegister: (username, displayName, password) => call("POST", "/v1/password/register", { username, displayName, password }),
  passwordSignIn: (username, password) => call("POST", "/v1/password/signin", { username, password }),
  addPasskeyVerify: (ticket, credential) => call("POST", "/v1/me/passkeys/registration/verify", { ticket, credential }),
  logout: () => call("POST", "/v1/session/logout"),
  deleteAccount: () => call("DELETE", "/v1/account"),
};
