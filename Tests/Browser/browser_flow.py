#!/usr/bin/env python3
"""The web page end to end in a real browser: headless Chromium driven by Selenium, with a WebDriver virtual
authenticator, against the built `latchkey serve` on a loopback port.

Two runs, each against a fresh server and SQLite file:
  - ctap2: a platform-like authenticator (internal transport, resident keys, user verification);
  - u2f:   a CTAP1/U2F security key (usb transport, no resident keys) against a server that asks for
           `--attestation direct`, so Chrome sends a `fido-u2f` attestation statement.

Each run: sign up, sign out, sign in with the username, sign in username-less with the button and from autofill
(ctap2; with U2F, which has no resident keys, the button finds no passkey and the page says so), add a second
passkey (the first authenticator is refused through excludeCredentials, then a second one is used), rename it,
remove the first, see the server refuse to remove the last, sign in with the second, add and verify an email address
with the code a real SMTP server (aiosmtpd, Tests/Mail/smtp_server.py) received, recover by a code sent to it, delete
the account.
Every step is checked on the page and on the server (GET /v1/me and /v1/me/passkeys with the page's
session cookie). A screenshot of every step goes to $LATCHKEY_ARTIFACTS (default .build/artifacts/browser).

Usage: browser_flow.py LATCHKEY [CHROMEDRIVER]   (LATCHKEY: the built binary; it is run, never built here)
Exits 0 when both runs pass; prints one summary line (LATCHKEY_BROWSER_VERBOSE=1 prints every step too).
scripts/browser.sh installs Chromium and runs this.
"""
import json
import os
import socket
import sqlite3
import subprocess
import sys
import tempfile
import time
import urllib.error
import urllib.request

from selenium import webdriver
from selenium.common.exceptions import TimeoutException
from selenium.webdriver.chrome.options import Options
from selenium.webdriver.chrome.service import Service
from selenium.webdriver.common.by import By
from selenium.webdriver.common.virtual_authenticator import Protocol, Transport, VirtualAuthenticatorOptions
from selenium.webdriver.support.ui import WebDriverWait

WAIT_SECONDS = 20
VERBOSE = os.environ.get("LATCHKEY_BROWSER_VERBOSE") == "1"


class StepFailed(Exception):
    pass


def free_port():
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return probe.getsockname()[1]


class Mailbox:
    """A real SMTP server (Tests/Mail/smtp_server.py: aiosmtpd with STARTTLS and AUTH) the server sends to; the tests
    read the codes from the messages it received."""

    def __init__(self, workdir):
        self.directory = tempfile.mkdtemp(prefix="mailbox.", dir=workdir)
        self.used = []
        script = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "Mail", "smtp_server.py")
        self.process = subprocess.Popen(
            [sys.executable, script, self.directory, "--user", "latchkey", "--password", "mail-secret"],
            stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True)
        line = self.process.stdout.readline().strip()
        if not line.startswith("PORT "):
            raise StepFailed(f"the SMTP server did not start: {line!r}")
        self.url = f"smtp://latchkey:mail-secret@localhost:{line[5:]}?ca={self.directory}/ca.pem"

    def messages(self):
        names = sorted(name for name in os.listdir(self.directory) if name.endswith(".json"))
        return [json.load(open(os.path.join(self.directory, name))) for name in names]

    def code(self, kind, to):
        """The six-digit code of the newest message whose subject ends "is your … `kind` code" (waits for one), which
        must have gone to `to` over TLS."""
        deadline = time.monotonic() + WAIT_SECONDS
        while time.monotonic() < deadline:
            for message in reversed(self.messages()):
                subject = next(line for line in message["data"].split("\r\n") if line.startswith("Subject: "))
                if subject.endswith(f" {kind} code") and message not in self.used:
                    if message["to"] != [to] or not message["tls"]:
                        raise StepFailed(f"the {kind} code went to {message['to']} (tls {message['tls']})")
                    self.used.append(message)
                    return next(word for word in subject.split() if len(word) == 6 and word.isdigit())
            time.sleep(0.1)
        raise StepFailed(f"no {kind} code arrived; messages: {len(self.messages())}")

    def stop(self):
        self.process.terminate()
        self.process.wait(timeout=10)


class Server:
    """`latchkey serve` on a free loopback port with a temporary SQLite file, origin http://localhost:<port>."""

    def __init__(self, binary, workdir, extra_args, smtp_url=None):
        self.binary = binary
        self.port = free_port()
        self.origin = f"http://localhost:{self.port}"
        self.log_path = os.path.join(workdir, f"server-{self.port}.log")
        self.database = os.path.join(workdir, f"latchkey-{self.port}.sqlite")
        args = [
            binary, "serve", "--host", "127.0.0.1", "--port", str(self.port), "--rp-id", "localhost",
            "--origin", self.origin, "--database", self.database,
            "--rate-limit", "0", *extra_args,
        ]
        self.log = open(self.log_path, "w")
        # The SMTP URL holds a password: given in the environment, as SERVER.md advises, not on the command line.
        environment = {**os.environ, **({"LATCHKEY_SMTP_URL": smtp_url} if smtp_url else {})}
        self.process = subprocess.Popen(args, stdout=self.log, stderr=subprocess.STDOUT, env=environment)
        deadline = time.monotonic() + 30
        while time.monotonic() < deadline:
            if self.process.poll() is not None:
                raise StepFailed(f"the server exited with {self.process.returncode}; see {self.log_path}")
            try:
                if self.get("/healthz")[0] == 200:
                    return
            except OSError:
                pass
            time.sleep(0.1)
        raise StepFailed("the server did not answer /healthz within 30 s")

    def get(self, path, session=None):
        """(status, JSON body) of GET path, with the session cookie when given."""
        request = urllib.request.Request(f"http://127.0.0.1:{self.port}{path}")
        if session:
            request.add_header("Cookie", f"latchkey_session={session}")
        try:
            with urllib.request.urlopen(request, timeout=10) as response:
                return response.status, json.loads(response.read() or b"null")
        except urllib.error.HTTPError as error:
            return error.code, json.loads(error.read() or b"null")

    def post(self, path, value):
        """(status, JSON body) of POST path with `value` as JSON (no cookie, no Origin: not a browser)."""
        request = urllib.request.Request(
            f"http://127.0.0.1:{self.port}{path}", data=json.dumps(value).encode(),
            headers={"Content-Type": "application/json"}, method="POST",
        )
        try:
            with urllib.request.urlopen(request, timeout=10) as response:
                return response.status, json.loads(response.read() or b"null")
        except urllib.error.HTTPError as error:
            return error.code, json.loads(error.read() or b"null")

    def attestation_formats(self):
        """The attestation statement format of every stored credential, read from the server's SQLite file."""
        with sqlite3.connect(f"file:{self.database}?mode=ro", uri=True) as db:
            return [row[0] for row in db.execute("SELECT attestation_format FROM credentials ORDER BY created_at")]

    def age_sessions(self):
        """Makes every session's last proof of the user an hour old, in the server's SQLite file (as the window passing
        would): the next sensitive change must re-authenticate."""
        with sqlite3.connect(self.database, timeout=10) as db:
            db.execute("UPDATE sessions SET verified_at = strftime('%Y-%m-%d %H:%M:%f', 'now', '-1 hour')")

    def stop(self):
        self.process.terminate()
        try:
            self.process.wait(timeout=10)
        except subprocess.TimeoutExpired:
            self.process.kill()
        self.log.close()


def make_driver(chromedriver):
    options = Options()
    options.set_capability("goog:loggingPrefs", {"browser": "ALL"})
    for argument in ("--headless=new", "--no-sandbox", "--disable-dev-shm-usage", "--disable-gpu",
                     "--window-size=430,1100", "--password-store=basic", "--no-first-run"):
        options.add_argument(argument)
    binary = os.environ.get("LATCHKEY_CHROMIUM", "/usr/bin/chromium")
    if os.path.exists(binary):
        options.binary_location = binary
    service = Service(executable_path=chromedriver) if chromedriver else Service()
    return webdriver.Chrome(options=options, service=service)


class Run:
    """One end-to-end run of the page with one kind of authenticator."""

    def __init__(self, name, driver, server, authenticator, artifacts):
        self.name = name
        self.driver = driver
        self.server = server
        self.authenticator = authenticator
        self.artifacts = artifacts
        self.shots = 0
        self.username = f"alice-{name}"

    # ---- helpers ----------------------------------------------------------------------------------------

    def step(self, label):
        self.shots += 1
        self.current = label
        if VERBOSE:
            print(f"browser [{self.name}] {label}", flush=True)

    def screenshot(self, label):
        self.driver.save_screenshot(os.path.join(self.artifacts, f"{self.name}-{self.shots:02d}-{label}.png"))

    def wait(self, condition, what):
        try:
            return WebDriverWait(self.driver, WAIT_SECONDS).until(lambda d: condition(d))
        except TimeoutException:
            self.screenshot("failed")
            raise StepFailed(f"{self.current}: timed out waiting for {what}; message: {self.message()!r}") from None

    def find(self, css):
        return self.driver.find_element(By.CSS_SELECTOR, css)

    def state(self):
        return self.driver.execute_script("return document.body.dataset.state || ''")

    def message(self):
        element = self.find("#message")
        return "" if element.get_attribute("hidden") is not None else element.text

    def wait_state(self, state):
        self.wait(lambda d: self.state() == state, f"the page to be {state}")

    def wait_message(self, text):
        self.wait(lambda d: text in self.message(), f"the message {text!r}")

    def click(self, css):
        self.find(css).click()

    def type(self, css, text):
        field = self.find(css)
        field.clear()
        field.send_keys(text)

    def add_authenticator(self):
        """A fresh virtual authenticator whose user-presence test does not pass by itself (see ``touch``)."""
        self.driver.add_virtual_authenticator(self.authenticator)
        self.presence(False)

    def presence(self, enabled):
        """Whether the authenticator's user-presence test passes at once (Chrome DevTools WebAuthn domain). Off
        between steps, so that the page's pending autofill (conditional) request waits, as it does for a person
        who has not picked a passkey; on while a step needs the authenticator."""
        self.driver.execute_cdp_cmd("WebAuthn.setAutomaticPresenceSimulation",
                                    {"authenticatorId": self.driver.virtual_authenticator_id, "enabled": enabled})

    def user_verified(self, verified):
        """Whether the authenticator's user verification succeeds (Chrome DevTools WebAuthn domain)."""
        self.driver.execute_cdp_cmd("WebAuthn.setUserVerified",
                                    {"authenticatorId": self.driver.virtual_authenticator_id, "isUserVerified": verified})

    def page_sessions(self):
        return self.driver.find_elements(By.CSS_SELECTOR, "#sessions li.session")

    def touch(self, action):
        """Runs `action` (which clicks, then waits for the page's answer) while the authenticator accepts a touch."""
        self.presence(True)
        try:
            action()
        finally:
            self.presence(False)

    def session(self):
        cookie = self.driver.get_cookie("latchkey_session")
        return cookie["value"] if cookie else None

    def expect(self, condition, what):
        if not condition:
            self.screenshot("failed")
            raise StepFailed(f"{self.current}: {what}")

    def server_me(self):
        return self.server.get("/v1/me", self.session())

    def server_passkeys(self):
        status, body = self.server.get("/v1/me/passkeys", self.session())
        self.expect(status == 200, f"GET /v1/me/passkeys answered {status} {body}")
        return body["passkeys"]

    def page_passkey_ids(self):
        return [item.get_attribute("data-id") for item in self.driver.find_elements(By.CSS_SELECTOR, "#passkeys li.passkey")]

    def expect_clean_console(self):
        """No script error and no Content-Security-Policy violation in the browser's console (failed requests,
        such as the 401 of GET /v1/me while signed out, are expected and ignored)."""
        problems = [entry["message"] for entry in self.driver.get_log("browser")
                    if entry["level"] == "SEVERE" and "Failed to load resource" not in entry["message"]]
        self.expect(not problems, f"the console reports {problems}")

    def expect_signed_in(self):
        self.wait_state("signed-in")
        self.expect(self.find("#username").text == self.username, f"the page shows {self.find('#username').text!r}")
        status, me = self.server_me()
        self.expect(status == 200 and me["name"] == self.username, f"GET /v1/me answered {status} {me}")

    def sign_out(self):
        old = self.session()
        self.click("#sign-out")
        self.wait_message("Signed out.")
        self.wait_state("signed-out")
        self.expect(self.session() is None, "the session cookie is still set after signing out")
        status, body = self.server.get("/v1/me", old)
        self.expect(status == 401 and body["error"]["code"] == "session.invalid", f"the old session still works: {status} {body}")

    def sign_in_with_username(self):
        self.type("#sign-in-username", self.username)
        self.touch(lambda: (self.click("#sign-in"), self.expect_signed_in()))

    # ---- the flow ---------------------------------------------------------------------------------------

    def run(self, usernameless, attestation_format, fallback):
        d = self.driver
        d.get(self.server.origin + "/")
        self.wait(lambda _: d.execute_script("return document.body.dataset.ready === 'true'"), "the page to load")
        self.wait_state("signed-out")
        self.expect(d.title == "Latchkey", f"title {d.title!r}")
        self.expect(self.find("#apple-sign-in").get_attribute("hidden") is not None, "Sign in with Apple is shown")
        helpers = d.execute_script("return typeof PublicKeyCredential.prototype.toJSON === 'function' && "
                                   "typeof PublicKeyCredential.parseCreationOptionsFromJSON === 'function'")
        self.expect(helpers != fallback, f"the browser's JSON helpers are {'present' if helpers else 'missing'}")

        self.step("sign up")
        self.type("#sign-up-username", self.username)
        self.type("#sign-up-display-name", "Alice Liddell")
        self.touch(lambda: (self.click("#sign-up"), self.expect_signed_in()))
        self.wait_message("Account created")
        self.expect(self.find("#display-name").text == "Alice Liddell", "display name not shown")
        first = self.server_passkeys()
        self.expect(len(first) == 1, f"{len(first)} passkeys after sign-up")
        first_id = first[0]["id"]
        self.expect(self.page_passkey_ids() == [first_id], f"the page lists {self.page_passkey_ids()}")
        badge = self.find("#passkeys li.passkey .badge").text
        expected_badge = "Synced" if first[0]["backedUp"] else "Device-bound"
        self.expect(badge == expected_badge, f"badge {badge!r}, backedUp={first[0]['backedUp']}")
        formats = self.server.attestation_formats()
        self.expect(formats == [attestation_format], f"the server stored attestation formats {formats}")
        sessions = self.page_sessions()
        self.expect(len(sessions) == 1 and sessions[0].find_element(By.CSS_SELECTOR, ".current").is_displayed(),
                    "the devices list shows this one session as this device")
        self.screenshot("signed-up")

        self.step("make recovery codes")
        self.click("#generate-recovery-codes")
        self.wait_message("New recovery codes made.")
        codes = [item.text for item in d.find_elements(By.CSS_SELECTOR, "#recovery-codes li")]
        self.expect(len(codes) == 10 and all(len(code) == 19 for code in codes), f"the page shows the codes {codes}")
        self.expect(self.find("#recovery-remaining").text == "10 unused codes.", "the count of codes")
        self.screenshot("recovery-codes")

        self.step("sign out")
        self.sign_out()
        self.screenshot("signed-out")

        self.step("sign in with username")
        self.sign_in_with_username()
        self.expect(self.server_passkeys()[0]["lastUsedAt"] is not None, "lastUsedAt not set after sign-in")
        self.expect(self.find("#passkeys .passkey-last-used").text != "never", "the page shows the passkey as never used")
        self.screenshot("signed-in-username")

        if not usernameless:
            self.step("username-less sign-in finds no passkey")
            self.sign_out()
            self.touch(lambda: (self.click("#sign-in-passkey"), self.wait_message("cancelled or timed out")))
            self.expect(self.state() == "signed-out", "signed in without a passkey")
            self.screenshot("usernameless-refused")
            self.sign_in_with_username()

        if usernameless:
            self.step("sign in username-less")
            self.sign_out()
            self.touch(lambda: (self.click("#sign-in-passkey"), self.expect_signed_in()))
            self.screenshot("signed-in-usernameless")

            self.step("sign in from autofill (conditional UI)")
            self.sign_out()
            # Nothing is clicked: the page's conditional request, started on load, completes once the
            # authenticator answers.
            self.touch(lambda: (d.refresh(), self.expect_signed_in()))
            self.screenshot("signed-in-autofill")

        self.step("add a passkey with the same authenticator (excluded)")
        self.touch(lambda: (self.click("#add-passkey"), self.wait_message("already registered")))
        self.expect(len(self.server_passkeys()) == 1, "an excluded authenticator was registered")
        self.screenshot("add-excluded")

        self.step("add a second passkey")
        d.remove_virtual_authenticator()
        self.add_authenticator()
        self.type("#add-passkey-name", "Second key")
        self.touch(lambda: (self.click("#add-passkey"), self.wait_message("Passkey added.")))
        passkeys = self.server_passkeys()
        self.expect(len(passkeys) == 2, f"{len(passkeys)} passkeys after adding one")
        second = next(p for p in passkeys if p["id"] != first_id)
        self.expect(second["name"] == "Second key", f"the new passkey is named {second['name']!r}")
        self.wait(lambda _: len(self.page_passkey_ids()) == 2, "two passkeys on the page")
        self.screenshot("added")

        self.step("rename")
        item = f'#passkeys li[data-id="{second["id"]}"]'
        self.click(item + " .rename")
        self.type(item + " .rename-input", "Blue key")
        self.click(item + " .save")
        self.wait_message("Passkey renamed.")
        self.wait(lambda _: self.find(item + " .passkey-name").text == "Blue key", "the new name on the page")
        renamed = [p for p in self.server_passkeys() if p["id"] == second["id"]]
        self.expect(renamed and renamed[0]["name"] == "Blue key", f"the server has {renamed}")
        self.screenshot("renamed")

        if usernameless:
            self.step("a session past the re-authentication window confirms it is the user before removing a passkey")
            self.server.age_sessions()
            self.user_verified(False)
            old = self.session()
            self.touch(lambda: (self.click(f'#passkeys li[data-id="{first_id}"] .remove'),
                                self.wait_message("cancelled or timed out")))
            self.expect(len(self.server_passkeys()) == 2, "removed without confirming it was the user")
            self.user_verified(True)
            self.touch(lambda: (self.click(f'#passkeys li[data-id="{first_id}"] .remove'), self.wait_message("Removed")))
            status, body = self.server.get("/v1/me", old)
            self.expect(status == 401, f"the unconfirmed session goes with the confirmation: {status} {body}")
            self.screenshot("reauthenticated")
        else:
            self.step("remove one")
            self.click(f'#passkeys li[data-id="{first_id}"] .remove')
            self.wait_message("Removed")
        self.wait(lambda _: self.page_passkey_ids() == [second["id"]], "one passkey on the page")
        self.expect([p["id"] for p in self.server_passkeys()] == [second["id"]], "the server still has the removed passkey")
        self.screenshot("removed")

        self.step("removing the last passkey is refused")
        self.click(f'#passkeys li[data-id="{second["id"]}"] .remove')
        self.wait_message("last passkey")
        self.expect("error" in self.find("#message").get_attribute("class"), "the refusal is not shown as an error")
        self.expect([p["id"] for p in self.server_passkeys()] == [second["id"]], "the last passkey was removed")
        self.screenshot("last-refused")

        self.step("sign in with the second passkey")
        self.sign_out()
        self.sign_in_with_username()
        self.screenshot("signed-in-second")

        self.step("lose the passkey, recover with a code and a new one")
        self.sign_out()
        self.expect(not d.find_elements(By.CSS_SELECTOR, "#recovery-codes li"), "the codes stay on the page after signing out")
        d.remove_virtual_authenticator()
        self.add_authenticator()
        self.type("#recover-username", self.username)
        self.type("#recover-code", codes[0].lower())
        self.touch(lambda: (self.click("#recover"), self.wait_message("Welcome back")))
        self.expect_signed_in()
        self.expect(len(self.server_passkeys()) == 2, "the new passkey was not added")
        self.expect(self.find("#recovery-remaining").text == "9 unused codes.", "the code was not spent")
        self.screenshot("recovered")

        self.step("recover with an operator's link")
        self.sign_out()
        issued = json.loads(subprocess.run(
            [self.server.binary, "recovery-link", "--database", self.server.database, "--username", self.username,
             "--origin", self.server.origin], check=True, capture_output=True, text=True).stdout)
        d.get(issued["url"])
        self.wait(lambda _: d.execute_script("return document.body.dataset.ready === 'true'"), "the page to load")
        self.wait_message("recovery link is ready")
        self.expect("#recover=" not in d.current_url, "the token stays in the address bar")
        d.remove_virtual_authenticator()
        self.add_authenticator()
        self.touch(lambda: (self.click("#recover-with-link"), self.wait_message("Welcome back")))
        self.expect_signed_in()
        self.expect(len(self.server_passkeys()) == 3, "the link's passkey was not added")
        self.screenshot("recovered-by-link")

        self.step("add and verify an email address")
        address = f"{self.username}@example.com"
        self.type("#add-email", address)
        self.click("#add-email-send")
        self.wait_message("We sent a code")
        self.type("#verify-email-code", self.mailbox.code("verification", address))
        self.click("#verify-email")
        self.wait_message("is verified")
        listed = [item.text for item in d.find_elements(By.CSS_SELECTOR, "#emails li .email-title")]
        self.expect(listed == [f"{address} Primary"], f"the page lists the addresses {listed}")
        self.screenshot("email-verified")

        self.step("lose the passkey, recover with a code sent by email")
        self.sign_out()
        d.remove_virtual_authenticator()
        self.add_authenticator()
        self.type("#recover-email", address.upper())
        self.click("#recover-email-send")
        self.wait_message("a code is on its way")
        self.type("#recover-email-code", self.mailbox.code("recovery", address))
        self.touch(lambda: (self.click("#recover-email-submit"), self.wait_message("Welcome back")))
        self.expect_signed_in()
        self.expect(len(self.server_passkeys()) == 4, "the emailed code's passkey was not added")
        self.screenshot("recovered-by-email")

        self.step("delete account")
        old = self.session()
        self.click("#delete-account")
        self.wait(lambda _: self.find("#delete-confirm").is_displayed(), "the confirmation")
        self.screenshot("delete-confirm")
        self.click("#delete-account-confirm")
        self.wait_message("Your account has been deleted.")
        self.wait_state("signed-out")
        status, body = self.server.get("/v1/me", old)
        self.expect(status == 401, f"the deleted account's session still works: {status} {body}")
        # The deleted name answers like any unknown name: decoy options, not "no such account" (no user enumeration).
        status, body = self.server.post("/v1/passkeys/authentication/options", {"username": self.username})
        self.expect(status == 200 and body["options"].get("allowCredentials"), f"options for the deleted name: {status} {body}")
        self.expect(self.state() == "signed-out", "signed in to a deleted account")
        self.screenshot("deleted")
        self.expect_clean_console()


# Makes the page take its base64url fallback: a browser without parse…FromJSON and toJSON.
WITHOUT_JSON_HELPERS = """
delete PublicKeyCredential.parseCreationOptionsFromJSON;
delete PublicKeyCredential.parseRequestOptionsFromJSON;
delete PublicKeyCredential.prototype.toJSON;
"""

RUNS = [
    # name, authenticator options, extra server arguments, username-less sign-in, attestation format stored,
    # whether the page must use its base64url fallback (the browser's JSON helpers are removed before it loads)
    ("ctap2", dict(protocol=Protocol.CTAP2, transport=Transport.INTERNAL, has_resident_key=True,
                   has_user_verification=True, is_user_verified=True), [], True, "none", False),
    ("u2f", dict(protocol=Protocol.U2F, transport=Transport.USB, has_resident_key=False,
                 has_user_verification=False, is_user_verified=False), ["--attestation", "direct"], False, "fido-u2f", True),
]


def main():
    if len(sys.argv) < 2:
        print(__doc__, file=sys.stderr)
        return 2
    binary, chromedriver = sys.argv[1], (sys.argv[2] if len(sys.argv) > 2 else None)
    artifacts = os.environ.get("LATCHKEY_ARTIFACTS", os.path.join(".build", "artifacts", "browser"))
    os.makedirs(artifacts, exist_ok=True)
    for old in os.listdir(artifacts):
        if old.endswith(".png"):
            os.remove(os.path.join(artifacts, old))
    started = time.monotonic()
    passed = []
    with tempfile.TemporaryDirectory(prefix="latchkey-browser.") as workdir:
        for name, authenticator, server_args, usernameless, attestation_format, fallback in RUNS:
            mailbox = Mailbox(workdir)
            server = Server(binary, workdir, server_args, smtp_url=mailbox.url)
            driver = make_driver(chromedriver)
            run = None
            try:
                run = Run(name, driver, server, VirtualAuthenticatorOptions(**authenticator), artifacts)
                run.mailbox = mailbox
                run.current = "load"
                if fallback:
                    driver.execute_cdp_cmd("Page.addScriptToEvaluateOnNewDocument", {"source": WITHOUT_JSON_HELPERS})
                run.add_authenticator()
                run.run(usernameless, attestation_format, fallback)
                passed.append(name)
            except Exception as error:  # noqa: BLE001 — any failure fails the test, with the step it happened in
                step = run.current if run else "start"
                print(f"browser test: FAILED in the {name} run at '{step}': {error}", file=sys.stderr)
                print(f"browser test: server log {server.log_path}:", file=sys.stderr)
                server.log.flush()
                with open(server.log_path) as log:
                    sys.stderr.write("".join(log.readlines()[-20:]))
                print(f"browser test: screenshots in {artifacts}", file=sys.stderr)
                return 1
            finally:
                driver.quit()
                server.stop()
                mailbox.stop()
    print(f"browser test: {' and '.join(passed)} runs passed in {time.monotonic() - started:.0f}s "
          f"(screenshots in {artifacts})")
    return 0


if __name__ == "__main__":
    sys.exit(main())
