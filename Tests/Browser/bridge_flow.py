#!/usr/bin/env python3
"""The hybrid-app passkey bridge end to end in a real browser: the page script (`latchkey passkey bridge
--print-script`, window.latchkeyBridge) in headless Chromium, its messages carried by a stand-in for WebKit's
message channel to `latchkey passkey bridge` processes playing the app's native side, against the built
`latchkey serve` on a loopback port with a fresh SQLite file.

The stand-in: `window.webkit.messageHandlers.latchkey.postMessage(body)` returns a promise and queues
{id, body, frame} (frame: the posting window's origin and whether it is the top one, which WebKit reports as
WKFrameInfo); this script drains the queue with execute_script, sends each message as a line to a bridge host
and resolves the promise with the host's reply, as WKScriptMessageHandlerWithReply does.

From page JavaScript it drives: /v1 sign-up with latchkeyBridge.register and sign-in (with a username and
username-less) with latchkeyBridge.authenticate, each verified by the server into a session; the same through
latchkeyBridge.credentials.create/get and toJSON(); an options object posted straight to the channel; and every
error code, in the envelope (ok, code, errMsg) and as the DOMException (or TypeError) credentials.* rejects
with: invalidOptions (bad JSON, unknown action, no options, a body that is not an object, options missing
fields), excludedCredential (the server's excludeCredentials), noCredentials (an unknown allowCredentials ID),
unsupported (an algorithm the authenticator lacks; no channel at all), notAllowed (user verification required
from a host started with --user-verification off; an iframe; a page on another host), and the rest through
hosts started with --fail-with CODE.

Usage: bridge_flow.py LATCHKEY [CHROMEDRIVER]   (LATCHKEY: the built binary; it is run, never built here)
Exits 0 when every check passes; the last line is "N passed, N failed" (LATCHKEY_BROWSER_VERBOSE=1 prints
every check). scripts/browser.sh installs Chromium and runs this after browser_flow.py.
"""
import json
import os
import queue
import subprocess
import sys
import tempfile
import threading
import time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from browser_flow import Server, StepFailed, make_driver  # noqa: E402  (the same server and browser set-up)

WAIT_SECONDS = 20
VERBOSE = os.environ.get("LATCHKEY_BROWSER_VERBOSE") == "1"

# The DOMException name credentials.create/get rejects with for each code (anything else: UnknownError;
# invalidOptions: a TypeError).
DOM_NAMES = {
    "cancelled": "NotAllowedError", "notAllowed": "NotAllowedError", "timedOut": "NotAllowedError",
    "noCredentials": "NotAllowedError", "excludedCredential": "InvalidStateError", "unsupported": "NotSupportedError",
    "deviceNotConfigured": "NotSupportedError", "invalidOptions": "TypeError",
}

# The stand-in for WebKit's message channel, in every new document (and, by install(), in an iframe's window).
CHANNEL = r"""
(() => {
  const queue = [];
  const pending = new Map();
  let next = 1;
  function install(win) {
    const handler = {
      postMessage(body) {
        let copy;
        try {
          copy = structuredClone(body);
        } catch (error) {
          return Promise.reject(error);
        }
        return new Promise((resolve, reject) => {
          const id = next++;
          pending.set(id, { resolve, reject });
          queue.push({ id, body: copy, frame: { origin: win.origin, isMainFrame: win === win.top } });
        });
      },
    };
    win.webkit = { messageHandlers: { latchkey: handler } };
  }
  window.__latchkeyChannel = {
    install,
    drain: () => queue.splice(0),
    resolve(id, reply) {
      const waiting = pending.get(id);
      pending.delete(id);
      if (waiting) waiting.resolve(reply);
    },
  };
  install(window);
})();
"""

# What the page-side steps share: running one step to completion for the Python side to poll, the server's
# API, base64url, and errors as plain data.
HARNESS = r"""
(() => {
  const runs = {};
  const base64url = (buffer) => btoa(String.fromCharCode(...new Uint8Array(buffer)))
    .replace(/\+/g, "-").replace(/\//g, "_").replace(/=+$/, "");
  const error = (e) => ({
    name: e && e.name, message: e && e.message, code: e && e.code, latchkeyCode: e && e.latchkeyCode,
    isDOMException: e instanceof DOMException, isTypeError: e instanceof TypeError && e.constructor === TypeError,
  });
  window.__latchkeyTest = {
    start(token, step) {
      runs[token] = null;
      Promise.resolve().then(step).then(
        (value) => { runs[token] = { value: value === undefined ? null : value }; },
        (e) => { runs[token] = { error: String((e && e.stack) || e) }; });
    },
    poll: (token) => ({ messages: window.__latchkeyChannel.drain(), result: runs[token] }),
    async api(method, path, body) {
      const init = { method, credentials: "same-origin", headers: { Accept: "application/json" } };
      if (body !== undefined) {
        init.headers["Content-Type"] = "application/json";
        init.body = JSON.stringify(body);
      }
      const response = await fetch(path, init);
      let json = null;
      try { json = await response.json(); } catch (e) { json = null; }
      return { status: response.status, json };
    },
    bytes(text) {
      const binary = atob(text.replace(/-/g, "+").replace(/_/g, "/"));
      return Uint8Array.from(binary, (c) => c.charCodeAt(0));
    },
    base64url,
    text: (buffer) => new TextDecoder().decode(buffer),
    error,
    // What a promise that should reject rejected with ({resolved: true} when it did not).
    async rejection(promise) {
      try {
        await promise;
        return { resolved: true };
      } catch (e) {
        return error(e);
      }
    },
    // The same options through both forms: the envelope of register/authenticate and what
    // credentials.create/get rejects with.
    async bothForms(action, options) {
      const bridge = window.latchkeyBridge;
      const envelope = await bridge[action](JSON.stringify(options));
      const call = action === "register" ? bridge.credentials.create : bridge.credentials.get;
      return { envelope, error: await window.__latchkeyTest.rejection(call({ publicKey: options })) };
    },
  };
})();
"""


class BridgeHost:
    """A `latchkey passkey bridge` process: one JSON line in, one out."""

    def __init__(self, binary, origin, args, log):
        self.label = " ".join(args) or "default"
        self.process = subprocess.Popen(
            [binary, "passkey", "bridge", "--origin", origin, *args],
            stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=log, text=True, bufsize=1)
        self.lines = queue.Queue()
        threading.Thread(target=self._read, daemon=True).start()

    def _read(self):
        for line in self.process.stdout:
            self.lines.put(line)
        self.lines.put(None)

    def ask(self, message):
        self.process.stdin.write(json.dumps(message) + "\n")
        self.process.stdin.flush()
        try:
            line = self.lines.get(timeout=WAIT_SECONDS)
        except queue.Empty:
            raise StepFailed(f"the bridge host ({self.label}) did not answer within {WAIT_SECONDS} s") from None
        if line is None:
            raise StepFailed(f"the bridge host ({self.label}) exited with {self.process.wait()}")
        answer = json.loads(line)
        if answer.get("id") != message["id"]:
            raise StepFailed(f"the bridge host answered id {answer.get('id')} to message {message['id']}")
        return answer["reply"]

    def stop(self):
        try:
            self.process.stdin.close()
            self.process.wait(timeout=5)
        except (OSError, subprocess.TimeoutExpired):
            self.process.kill()
            self.process.wait()


class Checks:
    def __init__(self):
        self.passed = 0
        self.failed = 0
        self.codes = set()  # the error codes seen in failure envelopes

    def expect(self, condition, label, detail=None):
        if condition:
            self.passed += 1
            if VERBOSE:
                print(f"bridge: ok   {label}", flush=True)
        else:
            self.failed += 1
            print(f"bridge: FAIL {label}" + (f": {json.dumps(detail)[:600]}" if detail is not None else ""),
                  file=sys.stderr, flush=True)

    def envelope_fails(self, label, envelope, code):
        """A failure envelope with `code` and a message."""
        self.expect(envelope.get("ok") is False, f"{label}: ok is false", envelope)
        self.expect(envelope.get("code") == code, f"{label}: code is {code}", envelope)
        self.expect(isinstance(envelope.get("errMsg"), str) and envelope["errMsg"] != "", f"{label}: errMsg", envelope)
        if envelope.get("code") == code:
            self.codes.add(code)

    def rejects(self, label, error, code):
        """What credentials.create/get rejected with for `code`: the DOMException (a TypeError for
        invalidOptions) with the stable code on .code and .latchkeyCode."""
        name = DOM_NAMES.get(code, "UnknownError")
        kind = error.get("isTypeError") if code == "invalidOptions" else error.get("isDOMException")
        self.expect(kind and error.get("name") == name, f"{label}: rejects with {name}", error)
        self.expect(error.get("code") == code and error.get("latchkeyCode") == code, f"{label}: error.code {code}", error)
        self.expect(bool(error.get("message")), f"{label}: error message", error)

    def succeeds(self, label, envelope):
        self.expect(envelope.get("ok") is True and isinstance(envelope.get("data"), dict), f"{label}: ok envelope", envelope)


class Page:
    """The browser tab: runs a step of page JavaScript while carrying its channel messages to a bridge host."""

    def __init__(self, driver):
        self.driver = driver
        self.steps = 0

    def open(self, url):
        self.driver.get(url)
        deadline = time.monotonic() + WAIT_SECONDS
        while not self.driver.execute_script("return !!(window.__latchkeyTest && window.latchkeyBridge)"):
            if time.monotonic() > deadline:
                raise StepFailed(f"the bridge script is not on {url}")
            time.sleep(0.05)

    def run(self, host, source):
        """Runs `source` (the body of an async function) in the page and returns what it returns."""
        self.steps += 1
        token = f"step{self.steps}"
        self.driver.execute_script(
            "const B = window.latchkeyBridge, T = window.__latchkeyTest;"
            "T.start(arguments[0], async () => {\n" + source + "\n});", token)
        deadline = time.monotonic() + WAIT_SECONDS
        while True:
            state = self.driver.execute_script("return window.__latchkeyTest.poll(arguments[0]);", token)
            for message in state["messages"]:
                if host is None:
                    raise StepFailed(f"a message reached the channel in a step that expects none: {message}")
                reply = host.ask(message)
                self.driver.execute_script("window.__latchkeyChannel.resolve(arguments[0], arguments[1]);",
                                           message["id"], reply)
            result = state["result"]
            if result is not None:
                if "error" in result:
                    raise StepFailed(f"the page step threw: {result['error']}")
                return result["value"]
            if time.monotonic() > deadline:
                raise StepFailed(f"the page step did not finish within {WAIT_SECONDS} s")
            if not state["messages"]:
                time.sleep(0.01)


SIGN_UP = """
const options = await T.api("POST", "/v1/passkeys/registration/options", {username: USERNAME, displayName: "Bridge"});
"""
SIGN_IN = """
await T.api("POST", "/v1/session/logout");
const signedOut = (await T.api("GET", "/v1/me")).status;
const options = await T.api("POST", "/v1/passkeys/authentication/options", USERNAME ? {username: USERNAME} : {});
"""


def with_username(source, username):
    return source.replace("USERNAME", json.dumps(username))


def scenarios(page, hosts, checks, origin, codes):
    """Each scenario: a label and a function; a failing one is counted and the next one runs."""
    main, no_uv = hosts["main"], hosts["no-uv"]

    def refused(label, host, code, source):
        """Runs `source`, which returns T.bothForms(…), and checks both forms failed with `code`."""
        result = page.run(host, source)
        checks.envelope_fails(label, result["envelope"], code)
        checks.rejects(f"{label}: credentials.*", result["error"], code)
        return result

    def expect_session(label, verify, me, username, status=200):
        checks.expect(verify["status"] == status and verify["json"]["user"]["name"] == username,
                      f"{label}: the server verifies it into a session", verify)
        checks.expect(me["status"] == 200 and me["json"]["name"] == username, f"{label}: GET /v1/me", me)

    def envelope_sign_up():
        label = "latchkeyBridge.register → sign-up"
        result = page.run(main, with_username(SIGN_UP, "bridge-envelope") + """
            const envelope = await B.register(JSON.stringify(options.json.options));
            const verify = await T.api("POST", "/v1/passkeys/registration/verify",
                                       {ticket: options.json.ticket, credential: envelope.data});
            return {available: B.isAvailable(), options: options.status, envelope, verify, me: await T.api("GET", "/v1/me")};
        """)
        checks.expect(result["available"] and result["options"] == 200, f"{label}: options", result)
        envelope = result["envelope"]
        checks.succeeds(label, envelope)
        data = envelope.get("data") or {}
        checks.expect(data.get("type") == "public-key" and data.get("id") == data.get("rawId"), f"{label}: data", data)
        checks.expect(data.get("transports") == ["internal", "hybrid"], f"{label}: transports at the top of data", data)
        expect_session(label, result["verify"], result["me"], "bridge-envelope", status=201)

    def envelope_sign_in(username):
        label = f"latchkeyBridge.authenticate → sign-in {'as ' + username if username else 'username-less'}"
        result = page.run(main, with_username(SIGN_IN, username) + """
            const envelope = await B.authenticate(JSON.stringify(options.json.options));
            const verify = await T.api("POST", "/v1/passkeys/authentication/verify",
                                       {ticket: options.json.ticket, credential: envelope.data});
            return {signedOut, envelope, verify, me: await T.api("GET", "/v1/me")};
        """)
        checks.expect(result["signedOut"] == 401, f"{label}: signed out first", result["signedOut"])
        checks.succeeds(label, result["envelope"])
        checks.expect("userHandle" in (result["envelope"].get("data") or {}).get("response", {}), f"{label}: userHandle",
                      result["envelope"])
        expect_session(label, result["verify"], result["me"], "bridge-envelope")

    def credentials_create():
        label = "credentials.create → sign-up"
        result = page.run(main, with_username(SIGN_UP, "bridge-credentials") + """
            const o = options.json.options;
            const publicKey = Object.assign({}, o, {
                challenge: T.bytes(o.challenge),                                  // a Uint8Array
                user: Object.assign({}, o.user, {id: T.bytes(o.user.id).buffer}),  // an ArrayBuffer
                excludeCredentials: (o.excludeCredentials || []).map(
                    (d) => Object.assign({}, d, {id: new DataView(T.bytes(d.id).buffer)})),
            });
            const credential = await B.credentials.create({publicKey});
            const r = credential.response;
            const json = credential.toJSON();
            const verify = await T.api("POST", "/v1/passkeys/registration/verify", {ticket: options.json.ticket, credential: json});
            return {
                id: credential.id, rawId: T.base64url(credential.rawId), type: credential.type,
                attachment: credential.authenticatorAttachment,
                buffers: [credential.rawId, r.clientDataJSON, r.attestationObject, r.getAuthenticatorData(), r.getPublicKey()]
                    .map((b) => b instanceof ArrayBuffer),
                transports: r.getTransports(), algorithm: r.getPublicKeyAlgorithm(),
                extensions: credential.getClientExtensionResults(),
                clientData: JSON.parse(T.text(r.clientDataJSON)), challenge: o.challenge,
                json, verify, me: await T.api("GET", "/v1/me"),
            };
        """)
        checks.expect(result["rawId"] == result["id"] and result["type"] == "public-key", f"{label}: id, rawId, type", result)
        checks.expect(result["attachment"] == "platform", f"{label}: authenticatorAttachment", result["attachment"])
        checks.expect(all(result["buffers"]), f"{label}: rawId and response fields are ArrayBuffers", result["buffers"])
        checks.expect(result["transports"] == ["internal", "hybrid"] and result["algorithm"] == -7,
                      f"{label}: getTransports(), getPublicKeyAlgorithm()", result)
        checks.expect(result["extensions"] == result["json"]["clientExtensionResults"] == {"credProps": {"rk": True}},
                      f"{label}: getClientExtensionResults()", result["extensions"])
        client = result["clientData"]
        checks.expect(client.get("type") == "webauthn.create" and client.get("challenge") == result["challenge"]
                      and client.get("origin") == origin, f"{label}: clientDataJSON", client)
        json_form = result["json"]
        checks.expect(set(json_form) == {"id", "rawId", "type", "authenticatorAttachment", "response", "clientExtensionResults"}
                      and json_form["response"].get("transports") == ["internal", "hybrid"],
                      f"{label}: toJSON() is the L3 RegistrationResponseJSON", json_form)
        expect_session(label, result["verify"], result["me"], "bridge-credentials", status=201)

    def credentials_get():
        label = "credentials.get → sign-in"
        result = page.run(main, with_username(SIGN_IN, "bridge-credentials") + """
            const o = options.json.options;
            const publicKey = Object.assign({}, o, {   // the challenge stays base64url text
                allowCredentials: (o.allowCredentials || []).map((d) => Object.assign({}, d, {id: T.bytes(d.id).buffer})),
            });
            const credential = await B.credentials.get({publicKey});
            const r = credential.response;
            const json = credential.toJSON();
            const verify = await T.api("POST", "/v1/passkeys/authentication/verify", {ticket: options.json.ticket, credential: json});
            return {
                id: credential.id, allowed: (o.allowCredentials || []).map((d) => d.id),
                buffers: [credential.rawId, r.clientDataJSON, r.authenticatorData, r.signature, r.userHandle]
                    .map((b) => b instanceof ArrayBuffer),
                clientData: JSON.parse(T.text(r.clientDataJSON)), challenge: o.challenge,
                json, verify, me: await T.api("GET", "/v1/me"),
            };
        """)
        checks.expect(result["id"] in result["allowed"], f"{label}: an allowed credential answers", result)
        checks.expect(all(result["buffers"]), f"{label}: rawId and response fields are ArrayBuffers", result["buffers"])
        client = result["clientData"]
        checks.expect(client.get("type") == "webauthn.get" and client.get("challenge") == result["challenge"],
                      f"{label}: clientDataJSON", client)
        checks.expect(set(result["json"]) == {"id", "rawId", "type", "authenticatorAttachment", "response", "clientExtensionResults"},
                      f"{label}: toJSON() is the L3 AuthenticationResponseJSON", result["json"])
        expect_session(label, result["verify"], result["me"], "bridge-credentials")

    def channel_bodies():
        label = "the channel"
        result = page.run(main, with_username(SIGN_IN, "bridge-envelope") + """
            const channel = window.webkit.messageHandlers.latchkey;
            const post = async (body) => JSON.parse(await channel.postMessage(body));
            const object = await post({action: "authenticate", options: options.json.options});
            const verify = await T.api("POST", "/v1/passkeys/authentication/verify", {ticket: options.json.ticket, credential: object.data});
            return {
                object, verify, me: await T.api("GET", "/v1/me"),
                unknownAction: await post({action: "delete", options: "{}"}),
                notAnObject: await post("register"),
                noOptions: await post({action: "register"}),
                badJSON: await B.register("{not json"),
                missingFields: await B.authenticate(JSON.stringify({rpId: "localhost"})),
                createMissingFields: await T.rejection(B.credentials.create({publicKey: {challenge: new Uint8Array(16)}})),
                getWithoutPublicKey: await T.rejection(B.credentials.get({})),
            };
        """)
        checks.succeeds(f"{label}: an options object", result["object"])
        expect_session(f"{label}: an options object", result["verify"], result["me"], "bridge-envelope")
        for key, what in [("unknownAction", "unknown action"), ("notAnObject", "a body that is not an object"),
                          ("noOptions", "no options"), ("badJSON", "options that are not JSON"),
                          ("missingFields", "options without a challenge")]:
            checks.envelope_fails(f"invalidOptions: {what}", result[key], "invalidOptions")
        checks.expect('unknown action "delete"' in (result["unknownAction"].get("errMsg") or ""),
                      "invalidOptions: the message names the action", result["unknownAction"])
        checks.rejects("invalidOptions: credentials.create without rp and user", result["createMissingFields"], "invalidOptions")
        checks.rejects("invalidOptions: credentials.get without publicKey", result["getWithoutPublicKey"], "invalidOptions")

    def excluded():
        label = "excludedCredential"
        result = refused(label, main, "excludedCredential", """
            const me = await T.api("GET", "/v1/me");
            const o = (await T.api("POST", "/v1/me/passkeys/registration/options", {})).json.options;
            return Object.assign(await T.bothForms("register", o), {
                me, excluded: o.excludeCredentials, passkeys: (await T.api("GET", "/v1/me/passkeys")).json.passkeys.length});
        """)
        checks.expect(result["me"]["json"]["name"] == "bridge-envelope" and len(result["excluded"] or []) == 1,
                      f"{label}: the server excludes the account's passkey", result)
        checks.expect(result["passkeys"] == 1, f"{label}: nothing was added", result["passkeys"])

    def no_credentials():
        refused("noCredentials: an unknown allowCredentials ID", main, "noCredentials", """
            const o = (await T.api("POST", "/v1/passkeys/authentication/options", {username: "bridge-envelope"})).json.options;
            o.allowCredentials = [{type: "public-key", id: "AAAAAAAAAAAAAAAAAAAAAA"}];
            return T.bothForms("authenticate", o);
        """)

    def unsupported():
        label = "unsupported"
        refused(f"{label}: only Ed448 in pubKeyCredParams", main, "unsupported", with_username(SIGN_UP, "bridge-unsupported") + """
            const o = options.json.options;
            o.pubKeyCredParams = [{type: "public-key", alg: -53}];   // Ed448, which the authenticator lacks
            return T.bothForms("register", o);
        """)
        result = page.run(None, """
            const saved = window.webkit;
            delete window.webkit;
            try {
                return {available: B.isAvailable(), envelope: await B.authenticate("{}"),
                        error: await T.rejection(B.credentials.get({publicKey: {challenge: new Uint8Array(16)}}))};
            } finally {
                window.webkit = saved;
            }
        """)
        checks.expect(result["available"] is False, f"{label}: isAvailable() without the channel", result)
        checks.envelope_fails(f"{label}: no channel", result["envelope"], "unsupported")
        checks.rejects(f"{label}: no channel, credentials.get", result["error"], "unsupported")

    def user_verification():
        label = "notAllowed: user verification required, --user-verification off"
        refused(label, no_uv, "notAllowed", with_username(SIGN_UP, "bridge-uv") + """
            const o = options.json.options;
            o.authenticatorSelection = Object.assign({}, o.authenticatorSelection, {userVerification: "required"});
            return T.bothForms("register", o);
        """)

    def iframe():
        label = "notAllowed: an iframe"
        result = page.run(main, """
            const frame = document.createElement("iframe");
            document.body.appendChild(frame);
            try {
                window.__latchkeyChannel.install(frame.contentWindow);
                const reply = await frame.contentWindow.webkit.messageHandlers.latchkey.postMessage(
                    {action: "authenticate", options: JSON.stringify({challenge: "AAAAAAAAAAAAAAAAAAAAAA", rpId: "localhost"})});
                return {origin: frame.contentWindow.origin, envelope: JSON.parse(reply)};
            } finally {
                frame.remove();
            }
        """)
        checks.expect(result["origin"] == origin, f"{label}: of the same origin", result["origin"])
        checks.envelope_fails(label, result["envelope"], "notAllowed")
        checks.expect("main frame" in (result["envelope"].get("errMsg") or ""), f"{label}: the message says why",
                      result["envelope"])

    def fail_with(code):
        def run():
            label = f"--fail-with {code}"
            result = page.run(hosts[code], """
                const user = {id: new Uint8Array([1, 2, 3]), name: "u", displayName: "U"};
                const creation = {rp: {id: "localhost", name: "Latchkey"}, user, challenge: new Uint8Array(16),
                                  pubKeyCredParams: [{type: "public-key", alg: -7}]};
                return {
                    register: await B.register(JSON.stringify({rp: creation.rp, user: {id: "AQID", name: "u", displayName: "U"},
                                                               challenge: "AAAAAAAAAAAAAAAAAAAAAA", pubKeyCredParams: creation.pubKeyCredParams})),
                    authenticate: await B.authenticate(JSON.stringify({challenge: "AAAAAAAAAAAAAAAAAAAAAA", rpId: "localhost"})),
                    create: await T.rejection(B.credentials.create({publicKey: creation})),
                    get: await T.rejection(B.credentials.get({publicKey: {challenge: new Uint8Array(16), rpId: "localhost"}})),
                };
            """)
            checks.envelope_fails(f"{label}: register", result["register"], code)
            checks.envelope_fails(f"{label}: authenticate", result["authenticate"], code)
            checks.rejects(f"{label}: credentials.create", result["create"], code)
            checks.rejects(f"{label}: credentials.get", result["get"], code)
        return run

    def foreign_origin():
        label = "notAllowed: a page on another host"
        foreign = origin.replace("//localhost:", "//127.0.0.1:")
        page.open(foreign + "/")
        try:
            result = page.run(main, """
                return {origin: window.origin, envelope: await B.authenticate(JSON.stringify({challenge: "AAAA", rpId: "localhost"})),
                        error: await T.rejection(B.credentials.create({publicKey: {challenge: new Uint8Array(16)}}))};
            """)
        finally:
            page.open(origin + "/")
        checks.expect(result["origin"] == foreign, f"{label}: the page is on {foreign}", result["origin"])
        checks.envelope_fails(label, result["envelope"], "notAllowed")
        checks.expect("127.0.0.1" in (result["envelope"].get("errMsg") or ""), f"{label}: the message names it", result["envelope"])
        checks.rejects(f"{label}: credentials.create", result["error"], "notAllowed")

    return [
        ("envelope sign-up", envelope_sign_up),
        ("envelope sign-in", lambda: envelope_sign_in("bridge-envelope")),
        ("envelope username-less sign-in", lambda: envelope_sign_in(None)),
        ("credentials.create sign-up", credentials_create),
        ("credentials.get sign-in", credentials_get),
        ("channel bodies", channel_bodies),
        ("excludedCredential", excluded),
        ("noCredentials", no_credentials),
        ("unsupported", unsupported),
        ("user verification", user_verification),
        ("iframe", iframe),
        *[(f"--fail-with {code}", fail_with(code)) for code in codes],
        ("foreign origin", foreign_origin),
    ]


def error_codes(binary):
    """The stable codes, as `latchkey passkey bridge` lists them when --fail-with names none of them."""
    run = subprocess.run([binary, "passkey", "bridge", "--origin", "http://localhost", "--fail-with", "?"],
                         capture_output=True, text=True, timeout=30)
    message = json.loads(run.stdout)["error"]["message"]
    return message.split("(known: ", 1)[1].rstrip(")").split(", ")


def main():
    if len(sys.argv) < 2:
        print(__doc__, file=sys.stderr)
        return 2
    binary, chromedriver = sys.argv[1], (sys.argv[2] if len(sys.argv) > 2 else None)
    started = time.monotonic()
    checks = Checks()
    codes = error_codes(binary)
    script = subprocess.run([binary, "passkey", "bridge", "--print-script"], capture_output=True, text=True,
                            check=True, timeout=30).stdout
    with tempfile.TemporaryDirectory(prefix="latchkey-bridge.") as workdir:
        server = driver = None
        hosts = {}
        log = open(os.path.join(workdir, "bridge-hosts.log"), "w")
        try:
            server = Server(binary, workdir, [])
            hosts["main"] = BridgeHost(binary, server.origin, [], log)
            hosts["no-uv"] = BridgeHost(binary, server.origin, ["--user-verification", "off"], log)
            for code in codes:
                hosts[code] = BridgeHost(binary, server.origin, ["--fail-with", code], log)
            driver = make_driver(chromedriver)
            for source in (CHANNEL, HARNESS, script):
                driver.execute_cdp_cmd("Page.addScriptToEvaluateOnNewDocument", {"source": source})
            page = Page(driver)
            page.open(server.origin + "/")
            for name, scenario in scenarios(page, hosts, checks, server.origin, codes):
                try:
                    scenario()
                except Exception as error:  # noqa: BLE001 — a broken scenario is a failure; the others still run
                    checks.expect(False, f"{name}: {error}")
            missing = sorted(set(codes) - checks.codes)
            checks.expect(not missing, "every error code was seen in a failure envelope", missing)
        except Exception as error:  # noqa: BLE001
            checks.expect(False, f"set-up: {error}")
            if server:
                server.log.flush()
                with open(server.log_path) as server_log:
                    sys.stderr.write("".join(server_log.readlines()[-20:]))
        finally:
            if driver:
                driver.quit()
            for host in hosts.values():
                host.stop()
            if server:
                server.stop()
            log.close()
    print(f"bridge test: {len(codes)} error codes, in {time.monotonic() - started:.1f}s")
    print(f"{checks.passed} passed, {checks.failed} failed")
    return 0 if checks.failed == 0 else 1


if __name__ == "__main__":
    sys.exit(main())
