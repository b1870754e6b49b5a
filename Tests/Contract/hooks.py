"""Schemathesis hooks (SCHEMATHESIS_HOOKS=hooks) that supply what no generator can: an authenticator's signatures, the
account's password, the one-time codes the server sent. Without them every positive case of a verify route is refused
(no schema can state a signature), so Schemathesis never saw one of those routes succeed, never checked their success
answers against the schema, and reported them as "schema validation mismatch".

For each operation in SUPPLIERS, every positive case Schemathesis sends (one it made as valid data) is replaced by a
valid request this module makes: a fresh ceremony begun over HTTP and finished with a software P-256 authenticator
(`none` attestation, as passkey providers send), the current password, a code read from the server's log
(`--smtp-url log:`), a recovery code of an account it made. The negative cases go as generated, so the server's
refusals stay tested. (Every positive case, not some: Schemathesis judges each round of its fuzzing on its own, and a
round may hold a single one.) Operations that would end the session they are made on run on accounts of its own.

Environment: LATCHKEY_CONTRACT_URL (the server), LATCHKEY_CONTRACT_ORIGIN (its web origin), LATCHKEY_CONTRACT_TOKEN
(the run's session), LATCHKEY_CONTRACT_PASSWORD (its account's password), LATCHKEY_CONTRACT_LOG (the server's log).
"""

import base64
import hashlib
import itertools
import json
import os
import re
import threading
import time
import urllib.error
import urllib.request

import schemathesis
from cryptography.hazmat.primitives import hashes
from cryptography.hazmat.primitives.asymmetric import ec
from fido2 import cbor

URL = os.environ["LATCHKEY_CONTRACT_URL"].rstrip("/")
ORIGIN = os.environ["LATCHKEY_CONTRACT_ORIGIN"]
LOG = os.environ["LATCHKEY_CONTRACT_LOG"]

lock = threading.Lock()
names = itertools.count(1)
state = {
    "token": os.environ["LATCHKEY_CONTRACT_TOKEN"],
    "password": os.environ["LATCHKEY_CONTRACT_PASSWORD"],
    # An account of this module's for recovery: (its name, its unspent recovery codes).
    "recovery": None,
    # Passkeys the server accepted (only sign_up records them): credential ID → (key, user handle, user name, sign
    # count).
    "passkeys": {},
}


def b64u(data):
    return base64.urlsafe_b64encode(data).rstrip(b"=").decode()


def unb64u(text):
    return base64.urlsafe_b64decode(text + "=" * (-len(text) % 4))


def call(method, path, body=None, token=None, cookie=None):
    """One request to the server: (status, JSON answer or None, Set-Cookie values)."""
    headers = {"Content-Type": "application/json", "Origin": ORIGIN}
    if token:
        headers["Authorization"] = f"Bearer {token}"
    if cookie:
        headers["Cookie"] = cookie
    data = None if body is None else json.dumps(body).encode()
    request = urllib.request.Request(URL + path, data=data, headers=headers, method=method)
    try:
        with urllib.request.urlopen(request) as response:
            status, raw, cookies = response.status, response.read(), response.headers.get_all("Set-Cookie") or []
    except urllib.error.HTTPError as error:
        status, raw, cookies = error.code, error.read(), []
    try:
        answer = json.loads(raw) if raw else None
    except ValueError:
        answer = None
    return status, answer, cookies


def client_data(kind, challenge):
    return json.dumps(
        {"type": kind, "challenge": challenge, "origin": ORIGIN, "crossOrigin": False}, separators=(",", ":")
    ).encode()


def create(options):
    """A `none`-attested ES256 passkey for creation options (what navigator.credentials.create answers)."""
    key = ec.generate_private_key(ec.SECP256R1())
    numbers = key.public_key().public_numbers()
    cose = {1: 2, 3: -7, -1: 1, -2: numbers.x.to_bytes(32, "big"), -3: numbers.y.to_bytes(32, "big")}
    credential_id = os.urandom(32)
    rp_id = options.get("rp", {}).get("id") or ORIGIN.split("//")[1].split(":")[0]
    # UP, UV, BE, BS, AT
    auth_data = (
        hashlib.sha256(rp_id.encode()).digest() + bytes([0x5D]) + (0).to_bytes(4, "big") + bytes(16)
        + len(credential_id).to_bytes(2, "big") + credential_id + cbor.encode(cose)
    )
    attestation = cbor.encode({"fmt": "none", "attStmt": {}, "authData": auth_data})
    credential = {
        "id": b64u(credential_id), "rawId": b64u(credential_id), "type": "public-key",
        "response": {
            "clientDataJSON": b64u(client_data("webauthn.create", options["challenge"])),
            "attestationObject": b64u(attestation), "transports": ["internal", "hybrid"],
        },
        "clientExtensionResults": {}, "authenticatorAttachment": "platform",
    }
    user = options.get("user", {})
    return credential, (key, unb64u(user.get("id", "")), user.get("name"), 0)


def get(options, credential_id, passkey):
    """An assertion by `passkey` for request options (what navigator.credentials.get answers)."""
    key, user_handle, name, count = passkey
    count += 1
    rp_id = options.get("rpId") or ORIGIN.split("//")[1].split(":")[0]
    auth_data = hashlib.sha256(rp_id.encode()).digest() + bytes([0x1D]) + count.to_bytes(4, "big")
    data = client_data("webauthn.get", options["challenge"])
    signature = key.sign(auth_data + hashlib.sha256(data).digest(), ec.ECDSA(hashes.SHA256()))
    with lock:
        state["passkeys"][credential_id] = (key, user_handle, name, count)
    return {
        "id": credential_id, "rawId": credential_id, "type": "public-key",
        "response": {
            "clientDataJSON": b64u(data), "authenticatorData": b64u(auth_data), "signature": b64u(signature),
            "userHandle": b64u(user_handle),
        },
        "clientExtensionResults": {}, "authenticatorAttachment": "platform",
    }


def fresh_name():
    return f"contract-{os.getpid()}-{next(names)}"


def sign_up():
    """A new account with a passkey of this module's: (its session token, the passkey's ID)."""
    status, begun, _ = call("POST", "/v1/passkeys/registration/options", {"username": fresh_name()})
    if status != 200:
        return None, None
    credential, passkey = create(begun["options"])
    status, answer, _ = call(
        "POST", "/v1/passkeys/registration/verify", {"ticket": begun["ticket"], "credential": credential})
    if status != 201:
        return None, None
    with lock:
        state["passkeys"][credential["id"]] = passkey
    return answer["session"]["token"], credential["id"]


def a_passkey():
    with lock:
        known = next(iter(state["passkeys"].items()), None)
    if known is None:
        sign_up()
        with lock:
            known = next(iter(state["passkeys"].items()), None)
    return known


def is_positive(case):
    """Whether Schemathesis made `case` as valid data (its negative cases go as generated)."""
    meta = getattr(case, "meta", None)
    return meta is None or str(getattr(meta.generation.mode, "value", meta.generation.mode)) == "positive"


def registration_body(options_path, options_body, token=None):
    status, begun, _ = call("POST", options_path, options_body, token=token)
    if status != 200:
        return None
    credential, _ = create(begun["options"])
    return {"ticket": begun["ticket"], "credential": credential}


def authentication_body():
    known = a_passkey()
    if known is None:
        return None
    credential_id, passkey = known
    status, begun, _ = call("POST", "/v1/passkeys/authentication/options", {"username": passkey[2]})
    if status != 200:
        return None
    return {"ticket": begun["ticket"], "credential": get(begun["options"], credential_id, passkey)}


def emailed_code(address):
    """The code the server logged for `address` (`--smtp-url log:`), waiting a little for it."""
    # One log entry: its subject, then (not crossing into the next entry's subject) its recipient.
    pattern = re.compile(
        r"subject=(\d{6}) is your \S+ verification code(?:(?!subject=).)*?to=" + re.escape(address) + r"\s", re.S)
    for _ in range(40):
        with open(LOG, encoding="utf-8", errors="replace") as log:
            found = pattern.findall(log.read()[-1_000_000:])
        if found:
            return found[-1]
        time.sleep(0.05)
    return None


def replace(case, body, token=None, cookie=None):
    """Sends `body` instead, as `token`'s session (the run's by default: a generated case may carry a token the
    run's responses gave, of another account)."""
    case.body = body
    signed_in_as(case, token)
    if cookie:
        case.headers = {**(case.headers or {}), "Cookie": cookie}


def signed_in_as(case, token=None):
    headers = {name: value for name, value in (case.headers or {}).items() if name.lower() != "authorization"}
    case.headers = {**headers, "Authorization": f"Bearer {token or state['token']}"}


@schemathesis.hook
def before_call(context, case, **kwargs):
    # Every case is sent signed in as the run's account, unless it carries an Authorization of its own.
    headers = case.headers or {}
    if not any(name.lower() == "authorization" for name in headers):
        case.headers = {**headers, "Authorization": f"Bearer {state['token']}"}
    operation = f"{case.method.upper()} {case.path}"
    if operation in SUPPLIERS and is_positive(case):
        SUPPLIERS[operation](case)


def supply_registration(case):
    body = registration_body("/v1/passkeys/registration/options", {"username": fresh_name()})
    if body:
        replace(case, body)


def supply_account_creation(case):
    body = registration_body("/v1/passkeys/account-creation/options", {})
    if body:
        replace(case, {**body, "username": fresh_name()})


def supply_authentication(case):
    body = authentication_body()
    if body:
        replace(case, body)


def supply_added_passkey(case):
    body = registration_body("/v1/me/passkeys/registration/options", {}, token=state["token"])
    if body:
        replace(case, body)


def supply_own_passkey(case):
    # A passkey added to the run's account just now (it has a password, so the passkey may be removed): the generated
    # ID is nobody's, so renaming and removing answered only 404 and their success was never checked.
    body = registration_body("/v1/me/passkeys/registration/options", {}, token=state["token"])
    if body is None:
        return
    status, added, _ = call("POST", "/v1/me/passkeys/registration/verify", body, token=state["token"])
    if status == 201:
        case.path_parameters = {**(case.path_parameters or {}), "id": added["id"]}
        signed_in_as(case)


def supply_recovery(case):
    # An account of this module's with recovery codes (a new set revokes the old, and the run may make one for its own
    # account): a code opens the ceremony of the account's new passkey.
    with lock:
        held = state["recovery"]
    if held is None or not held[1]:
        token, credential_id = sign_up()
        status, made, _ = call("POST", "/v1/me/recovery-codes", {}, token=token) if token else (0, None, [])
        if status != 201:
            return
        held = (state["passkeys"][credential_id][2], list(made["codes"]))
    username, codes = held
    code = codes.pop()
    with lock:
        state["recovery"] = held
    body = registration_body("/v1/recovery/options", {"username": username, "code": code})
    if body:
        replace(case, body)


def supply_reauthentication(case):
    # On a new account of this module's: re-authenticating ends the session it is made on, and the run's must live on.
    token, credential_id = sign_up()
    if token is None:
        return
    with lock:
        passkey = state["passkeys"][credential_id]
    status, begun, _ = call("POST", "/v1/passkeys/authentication/options", {"username": passkey[2]})
    if status != 200:
        return
    replace(
        case, {"ticket": begun["ticket"], "credential": get(begun["options"], credential_id, passkey)}, token=token)


def supply_password_reauthentication(case):
    # A password account of this module's: re-authenticating ends the session it is made on.
    password = f"contract password {next(names)} of {os.getpid()}"
    status, answer, _ = call("POST", "/v1/password/register", {"username": fresh_name(), "password": password})
    if status == 201:
        replace(case, {"password": password}, token=answer["session"]["token"])


def supply_password(case):
    # A password of its own: a generated one may be too common, which no schema can state either.
    new = f"contract password {next(names)} of {os.getpid()}"
    with lock:
        current = state["password"]
    replace(case, {"currentPassword": current, "newPassword": new})


def supply_email_code(case):
    # An account of its own: sending codes is throttled per account.
    token, _ = sign_up()
    if token is None:
        return
    address = f"{fresh_name()}@example.com"
    status, _, _ = call("POST", "/v1/me/emails", {"address": address}, token=token)
    code = emailed_code(address) if status == 202 else None
    if code:
        replace(case, {"address": address, "code": code}, token=token)


def supply_new_email(case):
    token, _ = sign_up()
    if token is not None:
        replace(case, {"address": f"{fresh_name()}@example.com"}, token=token)


def conformance_cookie(cookies):
    for cookie in cookies:
        if cookie.startswith("latchkey_ceremony="):
            return cookie.split(";", 1)[0]
    return None


def supply_conformance_attestation(case):
    name = fresh_name()
    status, options, cookies = call(
        "POST", "/attestation/options", {"username": name, "displayName": name, "attestation": "none"})
    cookie = conformance_cookie(cookies)
    if status == 200 and cookie:
        credential, _ = create(options)
        replace(case, credential, cookie=cookie)


def supply_conformance_assertion(case):
    known = a_passkey()
    if known is None:
        return
    credential_id, passkey = known
    status, options, cookies = call("POST", "/assertion/options", {"username": passkey[2]})
    cookie = conformance_cookie(cookies)
    if status == 200 and cookie:
        replace(case, get(options, credential_id, passkey), cookie=cookie)


@schemathesis.hook
def after_call(context, case, response):
    # The password the run's account has now.
    operation = f"{case.method.upper()} {case.path}"
    if operation == "PUT /v1/password" and response.status_code == 204:
        with lock:
            state["password"] = case.body["newPassword"]


SUPPLIERS = {
    "POST /v1/passkeys/registration/verify": supply_registration,
    "POST /v1/passkeys/account-creation/verify": supply_account_creation,
    "POST /v1/passkeys/authentication/verify": supply_authentication,
    "POST /v1/me/passkeys/registration/verify": supply_added_passkey,
    "PATCH /v1/me/passkeys/{id}": supply_own_passkey,
    "DELETE /v1/me/passkeys/{id}": supply_own_passkey,
    "POST /v1/recovery/verify": supply_recovery,
    "POST /v1/session/reauthenticate": supply_reauthentication,
    "POST /v1/session/reauthenticate/password": supply_password_reauthentication,
    "PUT /v1/password": supply_password,
    "POST /v1/me/emails/verify": supply_email_code,
    "POST /v1/me/emails": supply_new_email,
    "POST /attestation/result": supply_conformance_attestation,
    "POST /assertion/result": supply_conformance_assertion,
}
