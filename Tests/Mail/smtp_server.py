"""A real SMTP submission server for the email tests: aiosmtpd (from PyPI) on 127.0.0.1, with STARTTLS (or TLS from
the first byte) under a certificate from a CA this script makes, and AUTH PLAIN/LOGIN against one user.

Usage: python smtp_server.py DIR [--mode starttls|implicit|plain] [--user U --password P]
Writes DIR/ca.pem (the CA to trust), prints "PORT <n>" once listening, and saves each message it accepts as
DIR/<n>.json: {"from", "to", "data", "tls", "login"}. Recipients steer it: reject@… is refused (550) and later@… is
deferred (451) the first time it is tried. Runs until its standard input closes or it is sent SIGTERM.
"""

import argparse
import asyncio
import datetime
import ipaddress
import json
import logging
import os
import signal
import ssl
import sys
import warnings

from aiosmtpd.smtp import SMTP, AuthResult, LoginPassword
from cryptography import x509
from cryptography.hazmat.primitives import hashes, serialization
from cryptography.hazmat.primitives.asymmetric import ec
from cryptography.x509.oid import NameOID


def make_certificates(directory):
    """A CA and a certificate for localhost and 127.0.0.1 signed by it; returns the server's (cert, key) paths."""
    now = datetime.datetime.now(datetime.timezone.utc)
    ca_key = ec.generate_private_key(ec.SECP256R1())
    ca_name = x509.Name([x509.NameAttribute(NameOID.COMMON_NAME, "Latchkey SMTP test CA")])
    ca = (
        x509.CertificateBuilder().subject_name(ca_name).issuer_name(ca_name).public_key(ca_key.public_key())
        .serial_number(x509.random_serial_number()).not_valid_before(now - datetime.timedelta(minutes=5))
        .not_valid_after(now + datetime.timedelta(days=1))
        .add_extension(x509.BasicConstraints(ca=True, path_length=None), critical=True)
        .add_extension(x509.KeyUsage(False, False, False, False, False, True, True, False, False), critical=True)
        .sign(ca_key, hashes.SHA256())
    )
    key = ec.generate_private_key(ec.SECP256R1())
    cert = (
        x509.CertificateBuilder().subject_name(x509.Name([x509.NameAttribute(NameOID.COMMON_NAME, "localhost")]))
        .issuer_name(ca_name).public_key(key.public_key()).serial_number(x509.random_serial_number())
        .not_valid_before(now - datetime.timedelta(minutes=5)).not_valid_after(now + datetime.timedelta(days=1))
        .add_extension(
            x509.SubjectAlternativeName([x509.DNSName("localhost"), x509.IPAddress(ipaddress.ip_address("127.0.0.1"))]),
            critical=False)
        .add_extension(x509.BasicConstraints(ca=False, path_length=None), critical=True)
        .add_extension(x509.ExtendedKeyUsage([x509.oid.ExtendedKeyUsageOID.SERVER_AUTH]), critical=False)
        .sign(ca_key, hashes.SHA256())
    )
    paths = {name: os.path.join(directory, name) for name in ("ca.pem", "server.pem", "server.key")}
    with open(paths["ca.pem"], "wb") as f:
        f.write(ca.public_bytes(serialization.Encoding.PEM))
    with open(paths["server.pem"], "wb") as f:
        f.write(cert.public_bytes(serialization.Encoding.PEM))
    with open(paths["server.key"], "wb") as f:
        f.write(key.private_bytes(
            serialization.Encoding.PEM, serialization.PrivateFormat.PKCS8, serialization.NoEncryption()))
    return paths["server.pem"], paths["server.key"]


class Mailbox:
    def __init__(self, directory):
        self.directory = directory
        self.count = 0
        self.deferred = set()

    async def handle_RCPT(self, server, session, envelope, address, rcpt_options):
        local = address.split("@")[0].lower()
        if local == "reject":
            return "550 5.1.1 no such mailbox"
        if local == "later" and address not in self.deferred:
            self.deferred.add(address)
            return "451 4.3.0 try again later"
        envelope.rcpt_tos.append(address)
        return "250 OK"

    async def handle_DATA(self, server, session, envelope):
        self.count += 1
        record = {
            "from": envelope.mail_from,
            "to": envelope.rcpt_tos,
            "data": envelope.content.decode("utf-8", "replace") if isinstance(envelope.content, bytes) else envelope.content,
            "tls": session.ssl is not None or server.transport.get_extra_info("ssl_object") is not None,
            "login": getattr(session, "auth_data", None) and session.auth_data.decode(),
        }
        path = os.path.join(self.directory, "%04d.json" % self.count)
        with open(path + ".tmp", "w") as f:
            json.dump(record, f)
        os.rename(path + ".tmp", path)
        return "250 2.0.0 accepted"


def main():
    # aiosmtpd 1.4 warns of its own Session.login_data on every AUTH.
    warnings.filterwarnings("ignore", message="Session.login_data is deprecated")
    logging.getLogger("mail.log").setLevel(logging.ERROR)
    parser = argparse.ArgumentParser()
    parser.add_argument("directory")
    parser.add_argument("--mode", choices=["starttls", "implicit", "plain"], default="starttls")
    parser.add_argument("--user")
    parser.add_argument("--password")
    arguments = parser.parse_args()
    cert, key = make_certificates(arguments.directory)
    context = ssl.create_default_context(ssl.Purpose.CLIENT_AUTH)
    context.load_cert_chain(cert, key)

    def authenticator(server, session, envelope, mechanism, auth_data):
        if isinstance(auth_data, LoginPassword) and arguments.user is not None \
                and auth_data.login == arguments.user.encode() and auth_data.password == arguments.password.encode():
            return AuthResult(success=True, auth_data=auth_data.login)
        return AuthResult(success=False, handled=False)

    mailbox = Mailbox(arguments.directory)
    tls = arguments.mode == "starttls"

    def factory():
        return SMTP(
            mailbox, hostname="localhost", tls_context=context if tls else None, require_starttls=tls,
            authenticator=authenticator if arguments.user else None, auth_required=bool(arguments.user),
            auth_require_tls=arguments.mode == "starttls")

    loop = asyncio.new_event_loop()
    server = loop.run_until_complete(loop.create_server(
        factory, "127.0.0.1", 0, ssl=context if arguments.mode == "implicit" else None))
    print("PORT %d" % server.sockets[0].getsockname()[1], flush=True)
    stop = asyncio.Event()
    loop.add_signal_handler(signal.SIGTERM, stop.set)
    loop.add_reader(sys.stdin, lambda: stop.set() if not sys.stdin.buffer.read1(1024) else None)
    loop.run_until_complete(stop.wait())
    server.close()


if __name__ == "__main__":
    main()
