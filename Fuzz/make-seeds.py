#!/usr/bin/env python3
"""Builds the fuzz seed corpora (Fuzz/Corpus/<target>/) from the real-world vectors in Tests/*/Fixtures.

Run from the package root: python3 Fuzz/make-seeds.py. Each seed is named after its content's SHA-1, as libFuzzer
names what it adds, so rerunning it adds nothing twice. Input layouts are described in each target's Swift file.
"""
import base64, hashlib, json, os, re, struct, sys
from datetime import datetime, timezone

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
CORPUS = os.path.join(ROOT, "Fuzz", "Corpus")
FIXTURES = os.path.join(ROOT, "Tests", "WebAuthnTests", "Fixtures")
CLI_FIXTURES = os.path.join(ROOT, "Tests", "LatchkeyCLITests", "Fixtures")
LIMIT = 24  # seeds per target, to keep the committed corpora small


def b64url(text):
    return base64.urlsafe_b64decode(text + "=" * (-len(text) % 4))


def cbor_item(data, i=0):
    """Decodes one CBOR item at i; returns (value, end). Enough for WebAuthn structures."""
    head = data[i]
    major, info = head >> 5, head & 0x1F
    i += 1
    if info < 24:
        arg = info
    elif info in (24, 25, 26, 27):
        n = 1 << (info - 24)
        arg = int.from_bytes(data[i:i + n], "big")
        i += n
    else:
        raise ValueError("indefinite length")
    if major == 0:
        return arg, i
    if major == 1:
        return -1 - arg, i
    if major == 2:
        return bytes(data[i:i + arg]), i + arg
    if major == 3:
        return data[i:i + arg].decode(), i + arg
    if major == 4:
        items = []
        for _ in range(arg):
            v, i = cbor_item(data, i)
            items.append(v)
        return items, i
    if major == 5:
        m = {}
        for _ in range(arg):
            k, i = cbor_item(data, i)
            v, i = cbor_item(data, i)
            m[k] = v
        return m, i
    if major == 7:
        return {20: False, 21: True, 22: None}.get(info, arg), i
    raise ValueError("tag")


def cbor_head(major, n):
    if n < 24:
        return bytes([major << 5 | n])
    for info, size in ((24, 1), (25, 2), (26, 4), (27, 8)):
        if n < 1 << (8 * size):
            return bytes([major << 5 | info]) + n.to_bytes(size, "big")


def cbor_bytes_array(items):
    return cbor_head(4, len(items)) + b"".join(cbor_head(2, len(x)) + x for x in items)


def der_extension_value(cert, oid_dotted):
    """The extnValue octets of the extension with this OID, found by its encoded OID bytes."""
    parts = [int(p) for p in oid_dotted.split(".")]
    body = bytes([40 * parts[0] + parts[1]])
    for p in parts[2:]:
        enc = [p & 0x7F]
        p >>= 7
        while p:
            enc.insert(0, 0x80 | (p & 0x7F))
            p >>= 7
        body += bytes(enc)
    oid = bytes([6, len(body)]) + body
    at = cert.find(oid)
    if at < 0:
        return None
    i = at + len(oid)
    if cert[i] == 0x01:  # critical BOOLEAN
        i += 3
    if cert[i] != 0x04:
        return None
    i += 1
    length = cert[i]
    i += 1
    if length & 0x80:
        n = length & 0x7F
        length = int.from_bytes(cert[i:i + n], "big")
        i += n
    return cert[i:i + length]


seeds = {}


def add(target, data):
    if isinstance(data, str):
        data = data.encode()
    seeds.setdefault(target, []).append(bytes(data))


def timestamp(text):
    if not text:
        return 1_700_000_000
    return int(datetime.fromisoformat(text.replace("Z", "+00:00")).timestamp())


registrations = json.load(open(os.path.join(FIXTURES, "registration.json")))
authentications = json.load(open(os.path.join(FIXTURES, "authentication.json")))

for vector in registrations:
    credential = vector["credential"]
    response = credential["response"]
    att = b64url(response["attestationObject"])
    client_data = b64url(response["clientDataJSON"])
    cdh = hashlib.sha256(client_data).digest()
    when = struct.pack(">Q", timestamp(vector.get("verifyAt")) | 1)  # odd: SafetyNet timestamps not checked
    fmt = vector["format"]
    add("cbor", att)
    add("attestation-object", att)
    add("client-data", client_data)
    add("credential-json", json.dumps(credential, separators=(",", ":")))
    add("json-members", json.dumps({"ticket": "t", "credential": credential}, separators=(",", ":")))
    add("attestation-" + fmt if fmt in ("packed", "fido-u2f", "apple", "tpm", "android-key", "android-safetynet") else "attestation-compound", when + cdh + att)
    try:
        obj, _ = cbor_item(att)
    except (ValueError, IndexError, UnicodeDecodeError):
        continue
    auth_data = obj.get("authData", b"")
    add("authenticator-data", auth_data)
    if len(auth_data) > 55:
        (length,) = struct.unpack(">H", auth_data[53:55])
        try:
            _, end = cbor_item(auth_data, 55 + length)
            add("cose-key", auth_data[55 + length:end])
        except (ValueError, IndexError, UnicodeDecodeError):
            pass
    statement = obj.get("attStmt", {})
    if isinstance(statement, dict):
        for field in ("certInfo", "pubArea"):
            if field in statement:
                add("tpm-structures", statement[field])
        if "response" in statement:
            add("safetynet-jws", statement["response"])
        x5c = statement.get("x5c")
        if isinstance(x5c, list) and x5c:
            add("certificate-chain", when + cbor_bytes_array(x5c))
            if fmt == "android-key":
                value = der_extension_value(x5c[0], "1.3.6.1.4.1.11129.2.1.17")
                if value:
                    add("android-key-description", value)

for vector in authentications:
    credential = vector["credential"]
    response = credential["response"]
    add("authenticator-data", b64url(response["authenticatorData"]))
    add("client-data", b64url(response["clientDataJSON"]))
    add("credential-json", json.dumps(credential, separators=(",", ":")))

blob = open(os.path.join(CLI_FIXTURES, "mds-test-blob.jwt"), "rb").read().strip()
add("mds-blob", blob)
payload = blob.split(b".")[1]
add("mds-blob", b64url(payload.decode()))

# The store URL (--database) in the forms docs/SERVER.md names.
for url in ("latchkey.sqlite", "/var/lib/latchkey/latchkey.sqlite", "sqlite:///tmp/a%20b.sqlite", "sqlite://:memory:",
            "postgres://latchkey:secret@db.example:5432/latchkey?sslmode=require&schema=auth",
            "postgresql://latchkey@127.0.0.1/latchkey?sslmode=disable", "postgres://[::1]:5433/db?sslmode=verify-full"):
    add("store-url", url)

# What SMTP servers send (the first byte splits the two reads), and --smtp-url values.
for split, wire in ((7, b"220 mail.example.com ESMTP ready\r\n"),
                    (20, b"250-mail.example.com\r\n250-STARTTLS\r\n250-AUTH PLAIN LOGIN\r\n250-8BITMIME\r\n250 SMTPUTF8\r\n"),
                    (3, b"334 VXNlcm5hbWU6\r\n235 2.7.0 Authentication successful\r\n"),
                    (0, b"354 End data with <CR><LF>.<CR><LF>\n250 2.0.0 Ok: queued\n221 Bye\n"),
                    (9, b"451-4.3.0 try\r\n451 4.3.0 again later\r\n550 5.1.1 no such user\r\n")):
    add("smtp", bytes([split]) + wire)
for url in ("smtp://user:p%40ss@mail.example.com:587", "smtps://mail.example.com?timeout=5", "smtp://127.0.0.1:25?tls=none",
            "smtp://u:p@[::1]:2525?ca=/etc/ssl/certs/ca-certificates.crt"):
    add("smtp", url)

# The configuration file (JSON) and LATCHKEY_* variables (NAME=value lines).
add("configuration", json.dumps({"rpID": "example.com", "rpName": "Example", "origins": ["https://example.com"], "rateLimit": 60}))
add("configuration", json.dumps({
    "host": "0.0.0.0", "port": 8443, "database": "postgres://u@db/latchkey", "rpID": "example.com",
    "origins": ["https://example.com", "https://login.example.com"], "relatedOrigins": ["https://example.org"],
    "appleAppIDs": ["ABCDE12345.com.example.app"], "androidApps": ["com.example.app:AB:CD"], "userVerification": "required",
    "attestation": "direct", "trustedProxies": ["10.0.0.0/8", "::1"], "acceptBase64URLTextChallenge": True,
    "bodyLimit": 65536, "sessionLifetime": 86400, "ceremonyLifetime": 300, "idleTimeout": 60, "headerTimeout": 10,
    "bodyTimeout": 30, "attestationPolicy": "certified", "appleTeamID": "ABCDE12345", "appleKeyID": "KEY1234567", "applePrivateKey": "AuthKey.p8",
    "appleClientIDs": ["com.example.app"], "appleServicesID": "com.example.web",
    "appleRedirectURI": "https://example.com/v1/apple/callback", "appleBaseURL": "https://appleid.apple.com",
    "appleTokenMaxAge": 600, "secretsKey": base64.b64encode(bytes(range(32))).decode(), "passwordSignIn": True}))
add("configuration", "LATCHKEY_RP_ID=example.com\nLATCHKEY_ORIGINS=https://example.com,https://b.example.com\n"
    "LATCHKEY_PORT=8080\nLATCHKEY_TRUSTED_PROXIES=192.168.0.0/16,fe80::/10\nLATCHKEY_PASSWORD_SIGN_IN=yes\n"
    "LATCHKEY_IDLE_TIMEOUT=30\nLATCHKEY_ATTESTATION=none\nLATCHKEY_USER_VERIFICATION=preferred")

# Sign in with Apple: an identity token shaped like Apple's (RS256, kid; the signature is random), the notification body
# that carries one, and a JWKS document.
def b64u(data):
    return base64.urlsafe_b64encode(data).rstrip(b"=").decode()
claims = {"iss": "https://appleid.apple.com", "aud": "com.example.app", "exp": 1_900_000_000, "iat": 1_800_000_000,
          "sub": "001234.abcdef.1234", "nonce": hashlib.sha256(b"nonce").hexdigest(), "c_hash": "abc",
          "email": "a@privaterelay.appleid.com", "email_verified": "true", "is_private_email": True,
          "auth_time": 1_800_000_000, "nonce_supported": True}
token = ".".join([b64u(json.dumps({"alg": "RS256", "kid": "fuzz-kid"}).encode()), b64u(json.dumps(claims).encode()),
                  b64u(hashlib.sha512(b"signature").digest() * 4)])
add("apple-jws", token)
events = {"iss": "https://appleid.apple.com", "aud": "com.example.app", "iat": 1_800_000_000, "jti": "j",
          "events": json.dumps({"type": "consent-revoked", "sub": "001234.abcdef.1234", "event_time": 1_800_000_000})}
add("apple-jws", json.dumps({"payload": ".".join([token.split(".")[0], b64u(json.dumps(events).encode()), token.split(".")[2]])}))
add("apple-jws", json.dumps({"keys": [{"kty": "RSA", "kid": "fuzz-kid", "use": "sig", "alg": "RS256",
                                       "n": b64u(hashlib.sha512(b"n").digest() * 4), "e": "AQAB"}]}))

written = 0
for target, items in seeds.items():
    directory = os.path.join(CORPUS, target)
    os.makedirs(directory, exist_ok=True)
    unique = list(dict.fromkeys(items))
    # keep the smallest LIMIT seeds, but at least one of each length class
    for data in sorted(unique, key=len)[:LIMIT]:
        path = os.path.join(directory, hashlib.sha1(data).hexdigest())
        if not os.path.exists(path):
            with open(path, "wb") as f:
                f.write(data)
            written += 1
print(f"{written} seeds written under {os.path.relpath(CORPUS, ROOT)}")
