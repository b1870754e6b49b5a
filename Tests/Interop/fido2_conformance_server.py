#!/usr/bin/env python3
"""A relying party built on Yubico's python-fido2 (`Fido2Server`), serving the FIDO conformance API
(`/attestation/options`, `/attestation/result`, `/assertion/options`, `/assertion/result`) on loopback.

Latchkey's interoperability tests start it and point `latchkey passkey register|login --profile conformance`
at it: nothing here was written against Latchkey, only against the profile.

Usage: fido2_conformance_server.py [PORT [PORT_FILE]]   (port 0 or absent: any free port). Prints "READY <port>"
when listening, and writes the port to PORT_FILE when given.
"""
import json
import os
import secrets
import sys
import threading
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

from fido2.server import Fido2Server
from fido2.utils import websafe_decode
from fido2.webauthn import PublicKeyCredentialRpEntity, PublicKeyCredentialUserEntity

RP_ID = "localhost"
COOKIE = "interop_ceremony"

lock = threading.Lock()
users = {}        # username -> {"id": bytes, "credentials": [AttestedCredentialData]}
ceremonies = {}   # cookie value -> (kind, username or None, state)
server = None     # Fido2Server, made once the origin (port) is known


def jsonable(value):
    """fido2's option objects as plain JSON (bytes as unpadded base64url)."""
    return json.loads(json.dumps(dict(value), default=lambda o: dict(o)))


class Handler(BaseHTTPRequestHandler):
    def log_message(self, *args):
        pass

    def reply(self, status, body, cookie=None):
        data = json.dumps(body).encode()
        self.send_response(status)
        self.send_header("Content-Type", "application/json")
        self.send_header("Content-Length", str(len(data)))
        if cookie is not None:
            self.send_header("Set-Cookie", f"{COOKIE}={cookie}; Path=/; HttpOnly")
        self.end_headers()
        self.wfile.write(data)

    def fail(self, message, status=400):
        self.reply(status, {"status": "failed", "errorMessage": message})

    def ceremony(self):
        for part in self.headers.get("Cookie", "").split(";"):
            name, _, value = part.strip().partition("=")
            if name == COOKIE:
                with lock:
                    return ceremonies.pop(value, None)
        return None

    def do_POST(self):
        try:
            length = int(self.headers.get("Content-Length", "0"))
            body = json.loads(self.rfile.read(length) or b"{}")
            route = {
                "/attestation/options": self.attestation_options,
                "/attestation/result": self.attestation_result,
                "/assertion/options": self.assertion_options,
                "/assertion/result": self.assertion_result,
            }.get(self.path)
            if route is None:
                return self.fail("no such endpoint", 404)
            route(body)
        except Exception as error:  # every failure is the profile's failed response
            self.fail(f"{type(error).__name__}: {error}")

    def attestation_options(self, body):
        username = body.get("username") or ""
        if not username:
            return self.fail("username is required")
        with lock:
            user = users.setdefault(username, {"id": secrets.token_bytes(16), "credentials": []})
        selection = body.get("authenticatorSelection") or {}
        options, state = server.register_begin(
            PublicKeyCredentialUserEntity(id=user["id"], name=username, display_name=body.get("displayName") or username),
            credentials=user["credentials"],
            resident_key_requirement=selection.get("residentKey") or "preferred",
            user_verification=selection.get("userVerification") or "preferred",
        )
        ticket = secrets.token_urlsafe(16)
        with lock:
            ceremonies[ticket] = ("registration", username, state)
        self.reply(200, {"status": "ok", "errorMessage": "", **jsonable(options)["publicKey"]}, cookie=ticket)

    def attestation_result(self, body):
        pending = self.ceremony()
        if pending is None or pending[0] != "registration":
            return self.fail("no registration in progress")
        _, username, state = pending
        auth_data = server.register_complete(state, body)
        with lock:
            users[username]["credentials"].append(auth_data.credential_data)
        self.reply(200, {"status": "ok", "errorMessage": ""})

    def assertion_options(self, body):
        username = body.get("username") or None
        credentials = None
        if username is not None:
            with lock:
                if username not in users or not users[username]["credentials"]:
                    return self.fail(f"{username} has no credentials")
                credentials = users[username]["credentials"]
        options, state = server.authenticate_begin(credentials, user_verification=body.get("userVerification") or "preferred")
        ticket = secrets.token_urlsafe(16)
        with lock:
            ceremonies[ticket] = ("authentication", username, state)
        self.reply(200, {"status": "ok", "errorMessage": "", "allowCredentials": [], **jsonable(options)["publicKey"]}, cookie=ticket)

    def assertion_result(self, body):
        pending = self.ceremony()
        if pending is None or pending[0] != "authentication":
            return self.fail("no authentication in progress")
        _, username, state = pending
        with lock:
            if username is None:  # username-less: find the account by the returned user handle
                handle = websafe_decode(body["response"]["userHandle"])
                matches = [u for u in users.values() if u["id"] == handle]
                credentials = matches[0]["credentials"] if matches else []
            else:
                credentials = users[username]["credentials"]
        server.authenticate_complete(state, credentials, body)
        self.reply(200, {"status": "ok", "errorMessage": ""})


def main():
    global server
    port = int(sys.argv[1]) if len(sys.argv) > 1 else 0
    httpd = ThreadingHTTPServer(("127.0.0.1", port), Handler)
    origin = f"http://localhost:{httpd.server_address[1]}"
    server = Fido2Server(PublicKeyCredentialRpEntity(id=RP_ID, name="python-fido2 interop"), verify_origin=lambda o: o == origin)
    print(f"READY {httpd.server_address[1]}", flush=True)
    if len(sys.argv) > 2:
        with open(sys.argv[2] + ".tmp", "w") as file:
            file.write(str(httpd.server_address[1]))
        os.replace(sys.argv[2] + ".tmp", sys.argv[2])
    httpd.serve_forever()


if __name__ == "__main__":
    main()
