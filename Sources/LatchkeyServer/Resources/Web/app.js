// The page: sign up, sign in (with a username, username-less, from autofill, or with a password — then upgraded
// to a passkey), the account view with its passkeys, sign out and delete the account. It tells the passkey
// provider what the server accepts through the WebAuthn signal API where the browser has it. Talks to the server through api.js and to the authenticator
// through webauthn.js.
import { api } from "./api.js";
import { describe, isAbort } from "./messages.js";
import * as webauthn from "./webauthn.js";

const $ = (id) => document.getElementById(id);

const dateFormat = new Intl.DateTimeFormat(undefined, { dateStyle: "medium", timeStyle: "short" });
const formatDate = (text) => (text ? dateFormat.format(new Date(text)) : "never");

// ---- messages ------------------------------------------------------------------------------------------

function show(text, kind = "info") {
  const message = $("message");
  message.textContent = text;
  message.className = "message " + kind;
  message.setAttribute("role", kind === "error" ? "alert" : "status");
  message.hidden = false;
}

function clearMessage() {
  $("message").hidden = true;
  $("message").textContent = "";
}

/** Runs `action` with `buttons` disabled, showing any error in words. */
async function busy(buttons, action) {
  buttons.forEach((button) => (button.disabled = true));
  document.body.classList.add("busy");
  try {
    clearMessage();
    await action();
  } catch (error) {
    if (!isAbort(error)) show(describe(error), "error");
  } finally {
    buttons.forEach((button) => (button.disabled = false));
    document.body.classList.remove("busy");
  }
}

// ---- conditional UI ----------------------------------------------------------------------------------

let conditional = null; // the AbortController of the pending autofill request

function abortConditional() {
  if (conditional) {
    conditional.abort();
    conditional = null;
  }
}

/** Offers the site's passkeys in the username field's autofill, where the browser supports it. */
async function startConditional() {
  abortConditional();
  const controller = new AbortController();
  conditional = controller;
  try {
    if (!(await webauthn.conditionalMediationAvailable()) || controller.signal.aborted) return;
    const { ticket, options } = await api.authenticationOptions();
    if (controller.signal.aborted) return;
    const credential = await webauthn.get(options, { mediation: "conditional", signal: controller.signal });
    await verifySignIn(ticket, credential);
    if (conditional === controller) conditional = null;
    await showAccount("Signed in.");
  } catch (error) {
    if (!controller.signal.aborted && !isAbort(error)) show(describe(error), "error");
  }
}

/**
 * Runs a modal WebAuthn ceremony: a modal request cannot start while the autofill one is pending, so that one is
 * aborted first, and offered again if the ceremony fails.
 */
async function withoutAutofill(ceremony) {
  abortConditional();
  try {
    return await ceremony();
  } catch (error) {
    startConditional();
    throw error;
  }
}

// ---- views -------------------------------------------------------------------------------------------

async function showSignedOut(message) {
  abortUpgrade();
  $("signed-in").hidden = true;
  $("passkey-upgrade").hidden = true;
  $("recovery-codes-shown").hidden = true;
  $("recovery-codes").replaceChildren();
  $("signed-out").hidden = false;
  document.body.dataset.state = "signed-out";
  if (message) show(message);
  startConditional();
}

async function showAccount(message) {
  abortConditional();
  const [me, list, sessions, recovery, emails] = await Promise.all([
    api.me(), api.passkeys(), api.sessions(), api.recoveryCodeStatus(),
    emailEnabled ? api.emails() : Promise.resolve(null),
  ]);
  $("emails-card").hidden = !emails;
  if (emails) $("emails").replaceChildren(...emails.emails.map(emailItem));
  $("display-name").textContent = me.displayName || me.name;
  $("username").textContent = me.name;
  $("sign-in-methods").textContent = describeMethods(me.signInMethods);
  renderPasskeys(list.passkeys);
  $("sessions").replaceChildren(...sessions.sessions.map(sessionItem));
  $("recovery-remaining").textContent = recovery.remaining === 1 ? "1 unused code." : `${recovery.remaining} unused codes.`;
  if (list.passkeys.length > 0) $("passkey-upgrade").hidden = true;
  webauthn.signalAccount(list.signals);
  $("signed-out").hidden = true;
  $("signed-in").hidden = false;
  document.body.dataset.state = "signed-in";
  if (message) show(message, "success");
}

function describeMethods(methods) {
  if (!methods) return "";
  const ways = [];
  if (methods.passkeys > 0) ways.push(methods.passkeys === 1 ? "1 passkey" : `${methods.passkeys} passkeys`);
  if (methods.password) ways.push("a password");
  if (methods.apple) ways.push("Sign in with Apple");
  return ways.length ? "Ways in: " + ways.join(", ") + "." : "";
}

function renderPasskeys(passkeys) {
  const list = $("passkeys");
  list.replaceChildren(...passkeys.map(passkeyItem));
}

function emailItem(email) {
  const item = $("email-template").content.firstElementChild.cloneNode(true);
  item.querySelector(".email-address").textContent = email.address;
  item.querySelector(".primary-badge").hidden = !email.primary;
  item.querySelector(".unverified-badge").hidden = email.verified;
  const primary = item.querySelector(".make-primary");
  primary.hidden = email.primary || !email.verified;
  primary.addEventListener("click", (event) =>
    busy([event.currentTarget], async () => {
      await api.makePrimaryEmail(email.address);
      await showAccount(`Notices now go to ${email.address}.`);
    }),
  );
  item.querySelector(".remove-email").addEventListener("click", (event) =>
    busy([event.currentTarget], async () => {
      await api.removeEmail(email.address);
      await showAccount(`Removed ${email.address}.`);
    }),
  );
  return item;
}

// Whether the server sends email (GET /v1/web/config), and the address waiting for its code.
let emailEnabled = false;
let pendingEmail = null;

async function addEmail() {
  const address = $("add-email").value.trim();
  if (!address) {
    show("Enter the address to add.", "error");
    return;
  }
  await api.addEmail(address);
  pendingEmail = address;
  $("verify-email-address").textContent = address;
  $("verify-email-form").hidden = false;
  $("add-email-form").reset();
  await showAccount(`We sent a code to ${address}. Enter it to verify the address.`);
  $("verify-email-code").focus();
}

async function verifyEmail() {
  const code = $("verify-email-code").value.trim();
  if (!pendingEmail || !code) {
    show("Enter the code from the email.", "error");
    return;
  }
  await api.verifyEmail(pendingEmail, code);
  $("verify-email-form").reset();
  $("verify-email-form").hidden = true;
  await showAccount(`${pendingEmail} is verified.`);
  pendingEmail = null;
}

async function sendRecoveryEmail() {
  const email = $("recover-email").value.trim();
  if (!email) {
    show("Enter your account's email address.", "error");
    return;
  }
  await api.recoveryEmail(email);
  $("recover-email-code-row").hidden = false;
  show(`If an account has ${email} verified, a code is on its way to it.`);
  $("recover-email-code").focus();
}

async function recoverByEmail() {
  const email = $("recover-email").value.trim();
  const code = $("recover-email-code").value.trim();
  if (!email || !code) {
    show("Enter your email address and the code we sent to it.", "error");
    return;
  }
  await withoutAutofill(async () => {
    const { ticket, options } = await api.recoveryEmailOptions(email, code);
    const credential = await webauthn.create(options);
    const session = await api.recoveryVerify(ticket, credential);
    await webauthn.signalAccount(session.signals);
  });
  $("recover-email-form").reset();
  $("recover-email-code-row").hidden = true;
  await showAccount("Welcome back. Your new passkey is added; remove the lost one below.");
}

function sessionItem(session) {
  const item = $("session-template").content.firstElementChild.cloneNode(true);
  item.dataset.id = session.id;
  item.querySelector(".session-device").textContent = session.device || "Unknown device";
  item.querySelector(".session-network").textContent = session.network || "unknown network";
  item.querySelector(".session-seen").textContent = formatDate(session.lastSeenAt || session.createdAt);
  item.querySelector(".current").hidden = !session.current;
  const end = item.querySelector(".end-session");
  end.hidden = session.current;
  end.addEventListener("click", (event) =>
    busy([event.currentTarget], async () => {
      await api.endSession(session.id);
      await showAccount(`Signed out ${session.device || "that device"}.`);
    }),
  );
  return item;
}

const transportNames = { internal: "this device", hybrid: "phone (hybrid)", usb: "USB", nfc: "NFC", ble: "Bluetooth", "smart-card": "smart card" };
const transportName = (transport) => transportNames[transport] || transport;

function passkeyItem(passkey) {
  const item = $("passkey-template").content.firstElementChild.cloneNode(true);
  item.dataset.id = passkey.id;
  const name = passkey.name || "Unnamed passkey";
  item.querySelector(".passkey-name").textContent = name;
  const synced = passkey.backedUp || passkey.deviceType === "multi-device";
  const badge = item.querySelector(".badge");
  badge.textContent = synced ? "Synced" : "Device-bound";
  badge.classList.add(synced ? "synced" : "device-bound");
  if (passkey.authenticatorName) {
    item.querySelector(".passkey-authenticator").textContent = passkey.authenticatorName;
    item.querySelector(".passkey-authenticator-row").hidden = false;
  }
  if (passkey.transports && passkey.transports.length) {
    item.querySelector(".passkey-transports").textContent = passkey.transports.map(transportName).join(", ");
    item.querySelector(".passkey-transports-row").hidden = false;
  }
  item.querySelector(".passkey-created").textContent = formatDate(passkey.createdAt);
  item.querySelector(".passkey-last-used").textContent = formatDate(passkey.lastUsedAt);

  const form = item.querySelector(".rename-form");
  const input = item.querySelector(".rename-input");
  item.querySelector(".rename").addEventListener("click", () => {
    form.hidden = false;
    input.value = passkey.name || "";
    input.focus();
  });
  item.querySelector(".cancel").addEventListener("click", () => (form.hidden = true));
  form.addEventListener("submit", (event) => {
    event.preventDefault();
    busy([...form.querySelectorAll("button")], async () => {
      const newName = input.value.trim();
      await api.renamePasskey(passkey.id, newName === "" ? null : newName);
      await showAccount("Passkey renamed.");
    });
  });
  item.querySelector(".remove").addEventListener("click", (event) => {
    busy([event.currentTarget], async () => {
      await api.removePasskey(passkey.id);
      await showAccount(`Removed "${name}".`);
    });
  });
  return item;
}

// ---- actions -----------------------------------------------------------------------------------------

async function signUp() {
  const username = $("sign-up-username").value.trim();
  const displayName = $("sign-up-display-name").value.trim();
  if (!username) {
    show("Choose a username.", "error");
    $("sign-up-username").focus();
    return;
  }
  await withoutAutofill(async () => {
    const { ticket, options } = await api.registrationOptions(username, displayName || username);
    const credential = await webauthn.create(options);
    await api.registrationVerify(ticket, credential);
  });
  $("sign-up-form").reset();
  await showAccount("Account created. Your passkey is saved.");
}

/** Verifies a passkey sign-in; a passkey the server does not know is reported to the provider. */
async function verifySignIn(ticket, credential) {
  try {
    const session = await api.authenticationVerify(ticket, credential);
    await webauthn.signalAccount(session.signals);
  } catch (error) {
    if (error.code === "credential.notFound" && error.details?.credentialId) {
      await webauthn.signalUnknownCredential(error.details.rpId, error.details.credentialId);
    }
    throw error;
  }
}

async function signIn(username) {
  await withoutAutofill(async () => {
    const { ticket, options } = await api.authenticationOptions(username);
    const credential = await webauthn.get(options);
    await verifySignIn(ticket, credential);
  });
  $("sign-in-form").reset();
  await showAccount("Signed in.");
}

async function addPasskey() {
  const name = $("add-passkey-name").value.trim();
  const { ticket, options } = await api.addPasskeyOptions(name);
  const credential = await webauthn.create(options);
  await api.addPasskeyVerify(ticket, credential);
  $("add-passkey-form").reset();
  await showAccount("Passkey added.");
}

/**
 * After a password sign-in or sign-up: signals, the account, then the passkey upgrade. Where the browser can create a
 * passkey conditionally the page tries that silently in the background with the server's conditional ceremony;
 * otherwise (or if it does not complete) the page offers "Add a passkey".
 */
let upgrade = null; // the AbortController of a pending conditional create

function abortUpgrade() {
  if (upgrade) {
    upgrade.abort();
    upgrade = null;
  }
}

async function afterPassword(session, message) {
  await webauthn.signalAccount(session.signals);
  $("passkey-upgrade").hidden = !session.passkeyUpgrade;
  await showAccount(message);
  if (session.passkeyUpgrade && (await webauthn.conditionalCreateAvailable())) {
    $("passkey-upgrade").hidden = true;
    silentUpgrade(session.passkeyUpgrade);
  }
}

async function silentUpgrade({ ticket, options }) {
  abortUpgrade();
  const controller = new AbortController();
  upgrade = controller;
  const timer = setTimeout(() => controller.abort(), 15000);
  try {
    const credential = await webauthn.create(options, { mediation: "conditional", signal: controller.signal });
    await api.addPasskeyVerify(ticket, credential);
    await showAccount("A passkey was saved for next time.");
  } catch {
    // No passkey this time: offer one, unless the person has moved on (signed out, or pressed the button).
    if (!controller.signal.aborted || upgrade === controller) $("passkey-upgrade").hidden = document.body.dataset.state !== "signed-in";
  } finally {
    clearTimeout(timer);
    if (upgrade === controller) upgrade = null;
  }
}

async function passwordSignIn() {
  const username = $("password-sign-in-username").value.trim();
  const password = $("password-sign-in-password").value;
  if (!username || !password) {
    show("Enter your username and password.", "error");
    return;
  }
  const session = await withoutAutofill(() => api.passwordSignIn(username, password));
  $("password-sign-in-form").reset();
  await afterPassword(session, "Signed in.");
}

async function passwordSignUp() {
  const username = $("password-sign-up-username").value.trim();
  const displayName = $("password-sign-up-display-name").value.trim();
  const password = $("password-sign-up-password").value;
  if (!username || !password) {
    show("Choose a username and a password.", "error");
    return;
  }
  const session = await withoutAutofill(() => api.passwordRegister(username, displayName || username, password));
  $("password-sign-up-form").reset();
  await afterPassword(session, "Account created.");
}

async function upgradeToPasskey() {
  abortUpgrade();
  const { ticket, options } = await api.addPasskeyOptions(null);
  const credential = await webauthn.create(options);
  await api.addPasskeyVerify(ticket, credential);
  $("passkey-upgrade").hidden = true;
  await showAccount("Passkey added. Next time, sign in with it.");
}

async function signOut() {
  await api.logout();
  await showSignedOut("Signed out.");
}

/** Asks for the password in the page's dialog (a password field, not window.prompt's clear text); null if cancelled. */
function askPassword() {
  const dialog = $("confirm-password-dialog");
  const field = $("confirm-password");
  field.value = "";
  return new Promise((resolve) => {
    dialog.addEventListener(
      "close",
      () => {
        const password = dialog.returnValue === "confirm" ? field.value : null;
        field.value = "";
        resolve(password || null);
      },
      { once: true },
    );
    dialog.returnValue = "";
    dialog.showModal();
    field.focus();
  });
}

// The token of an operator's recovery link (`/#recover=<token>`), taken from the address when the page loads.
let recoveryToken = null;

async function recover() {
  const username = $("recover-username").value.trim();
  const code = $("recover-code").value.trim();
  if (!recoveryToken && (!username || !code)) {
    show("Enter your username and one of your recovery codes.", "error");
    return;
  }
  await withoutAutofill(async () => {
    const { ticket, options } = recoveryToken
      ? await api.recoveryLinkOptions(recoveryToken)
      : await api.recoveryOptions(username, code);
    recoveryToken = null;
    $("recover-with-link").hidden = true;
    const credential = await webauthn.create(options);
    const session = await api.recoveryVerify(ticket, credential);
    await webauthn.signalAccount(session.signals);
  });
  $("recover-form").reset();
  await showAccount("Welcome back. Your new passkey is added; remove the lost one below.");
}

/** Takes a recovery link's token out of the address (so it is not kept in the history) and offers to use it. */
function takeRecoveryLink() {
  const match = /^#recover=([A-Za-z0-9_-]+)$/.exec(window.location.hash);
  if (!match) return false;
  recoveryToken = match[1];
  history.replaceState(null, "", window.location.pathname + window.location.search);
  $("recover-with-link").hidden = false;
  return true;
}

async function generateRecoveryCodes() {
  const { codes } = await api.generateRecoveryCodes();
  await showAccount("New recovery codes made. The old ones no longer work.");
  $("recovery-codes").replaceChildren(...codes.map((code) => Object.assign(document.createElement("li"), { textContent: code })));
  $("recovery-codes-shown").hidden = false;
}

async function signOutEverywhere() {
  await api.signOutEverywhere();
  await showSignedOut("Signed out everywhere.");
}

async function deleteAccount() {
  await api.deleteAccount();
  $("delete-confirm").hidden = true;
  await showSignedOut("Your account has been deleted.");
}

// ---- wiring ------------------------------------------------------------------------------------------

function wire() {
  $("sign-up-form").addEventListener("submit", (event) => {
    event.preventDefault();
    busy([$("sign-up")], signUp);
  });
  $("sign-in-form").addEventListener("submit", (event) => {
    event.preventDefault();
    const username = $("sign-in-username").value.trim();
    if (!username) {
      show("Enter your username, or use “Sign in with a passkey”.", "error");
      $("sign-in-username").focus();
      return;
    }
    busy([$("sign-in"), $("sign-in-passkey")], () => signIn(username));
  });
  $("sign-in-passkey").addEventListener("click", () => busy([$("sign-in"), $("sign-in-passkey")], () => signIn(null)));
  $("add-passkey-form").addEventListener("submit", (event) => {
    event.preventDefault();
    busy([$("add-passkey")], addPasskey);
  });
  $("sign-out").addEventListener("click", () => busy([$("sign-out")], signOut));
  $("sign-out-everywhere").addEventListener("click", () => busy([$("sign-out-everywhere")], signOutEverywhere));
  $("generate-recovery-codes").addEventListener("click", () => busy([$("generate-recovery-codes")], generateRecoveryCodes));
  $("recover-form").addEventListener("submit", (event) => {
    event.preventDefault();
    busy([$("recover")], recover);
  });
  $("recover-with-link").addEventListener("click", () => busy([$("recover-with-link")], recover));
  $("recover-email-send").addEventListener("click", () => busy([$("recover-email-send")], sendRecoveryEmail));
  $("recover-email-form").addEventListener("submit", (event) => {
    event.preventDefault();
    busy([$("recover-email-submit")], recoverByEmail);
  });
  $("add-email-form").addEventListener("submit", (event) => {
    event.preventDefault();
    busy([$("add-email-send")], addEmail);
  });
  $("verify-email-form").addEventListener("submit", (event) => {
    event.preventDefault();
    busy([$("verify-email")], verifyEmail);
  });
  // A recovery link opened in a tab that already shows the page changes only the fragment.
  window.addEventListener("hashchange", () => {
    if (takeRecoveryLink() && document.body.dataset.state === "signed-out") {
      show("Your recovery link is ready: add a new passkey to get back into your account.");
    }
  });
  $("password-sign-in-form").addEventListener("submit", (event) => {
    event.preventDefault();
    busy([$("password-sign-in")], passwordSignIn);
  });
  $("password-sign-up-form").addEventListener("submit", (event) => {
    event.preventDefault();
    busy([$("password-sign-up")], passwordSignUp);
  });
  $("upgrade-passkey").addEventListener("click", () => busy([$("upgrade-passkey")], upgradeToPasskey));
  $("delete-account").addEventListener("click", () => {
    $("delete-confirm").hidden = false;
    $("delete-account-confirm").focus();
  });
  $("delete-account-cancel").addEventListener("click", () => ($("delete-confirm").hidden = true));
  $("delete-account-confirm").addEventListener("click", () => busy([$("delete-account-confirm")], deleteAccount));
}

async function start() {
  wire();
  api.setPasswordPrompt(askPassword);
  if (!webauthn.supported()) show("This browser cannot use passkeys.", "error");
  try {
    const config = await api.config();
    $("rp-name").textContent = config.rpName;
    document.title = config.rpName;
    $("apple-sign-in").hidden = !config.appleSignIn;
    emailEnabled = config.email === true;
    $("recover-email-form").hidden = !emailEnabled;
  } catch {
    // The page works without its configuration; "Sign in with Apple" stays hidden.
  }
  if (takeRecoveryLink()) {
    await showSignedOut("Your recovery link is ready: add a new passkey to get back into your account.");
    $("recover-with-link").focus();
  } else {
    try {
      await showAccount();
    } catch (error) {
      if (error.status !== 401) show(describe(error), "error");
      await showSignedOut();
    }
  }
  document.body.dataset.ready = "true";
}

start();
