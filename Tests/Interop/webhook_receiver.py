"""A webhook receiver for the webhook tests: an HTTP server on 127.0.0.1 that checks each delivery's Standard Webhooks
signature with the standardwebhooks package (PyPI, not ours) and the secret given, and saves each delivery as
DIR/<n>.json: {"id", "path", "verified", "error", "payload"}. The path steers the answer: one ending in /flaky answers
503 the first time a webhook-id comes to it and 204 after; /gone answers 410; anything else 204 (400 when the signature
does not verify).

Usage: python webhook_receiver.py DIR SECRET [PORT]   (PORT: listen there, as a receiver back from an outage)
Prints "PORT <n>" once listening; runs until its standard input closes or it is sent SIGTERM.
"""

import http.server
import json
import os
import sys
import threading

from standardwebhooks.webhooks import Webhook


def main():
    directory, secret = sys.argv[1], sys.argv[2]
    port = int(sys.argv[3]) if len(sys.argv) > 3 else 0
    webhook = Webhook(secret)
    lock = threading.Lock()
    seen = set()
    count = [0]

    class Handler(http.server.BaseHTTPRequestHandler):
        def log_message(self, *args):
            pass

        def do_POST(self):
            body = self.rfile.read(int(self.headers.get("content-length", "0")))
            headers = {name.lower(): value for name, value in self.headers.items()}
            verified, error, payload = True, None, None
            try:
                payload = webhook.verify(body, headers)
            except Exception as exception:  # the library's verification error
                verified, error = False, str(exception)
            message_id = headers.get("webhook-id")
            with lock:
                count[0] += 1
                number = count[0]
                first = (self.path, message_id) not in seen
                seen.add((self.path, message_id))
            with open(os.path.join(directory, "%06d.json" % number), "w") as file:
                json.dump({"id": message_id, "path": self.path, "verified": verified, "error": error,
                           "payload": payload}, file)
            if not verified:
                status = 400
            elif self.path.endswith("/gone"):
                status = 410
            elif self.path.endswith("/flaky") and first:
                status = 503
            else:
                status = 204
            self.send_response(status)
            self.send_header("content-length", "0")
            self.end_headers()

    http.server.ThreadingHTTPServer.allow_reuse_address = True
    server = http.server.ThreadingHTTPServer(("127.0.0.1", port), Handler)
    threading.Thread(target=server.serve_forever, daemon=True).start()
    print("PORT %d" % server.server_address[1], flush=True)
    sys.stdin.read()
    server.shutdown()


if __name__ == "__main__":
    main()
