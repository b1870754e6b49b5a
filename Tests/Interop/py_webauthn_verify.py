#!/usr/bin/env python3
"""Verifies a registration and then an assertion with py_webauthn (Duo Labs, PyPI `webauthn`).

Reads one JSON object on stdin:
  {"rpId": "...", "origin": "...",
   "registration": {"credential": {...RegistrationResponseJSON...}, "challenge": "<base64url>"},
   "authentication": {"credential": {...AuthenticationResponseJSON...}, "challenge": "<base64url>"}}   (optional)
and prints {"ok": true, "registration": {...}, "authentication": {...}} or {"ok": false, "error": "..."}.
Exit status 0 either way; the caller reads "ok".
"""
import json
import sys

from webauthn import verify_authentication_response, verify_registration_response
from webauthn.helpers import base64url_to_bytes, bytes_to_base64url


def main():
    scenario = json.load(sys.stdin)
    try:
        registration = scenario["registration"]
        verified = verify_registration_response(
            credential=json.dumps(registration["credential"]),
            expected_challenge=base64url_to_bytes(registration["challenge"]),
            expected_rp_id=scenario["rpId"],
            expected_origin=scenario["origin"],
            require_user_verification=False,
        )
        result = {
            "ok": True,
            "registration": {
                "credentialId": bytes_to_base64url(verified.credential_id),
                "format": getattr(verified.fmt, "value", verified.fmt),
                "signCount": verified.sign_count,
                "userVerified": verified.user_verified,
            },
        }
        authentication = scenario.get("authentication")
        if authentication is not None:
            asserted = verify_authentication_response(
                credential=json.dumps(authentication["credential"]),
                expected_challenge=base64url_to_bytes(authentication["challenge"]),
                expected_rp_id=scenario["rpId"],
                expected_origin=scenario["origin"],
                credential_public_key=verified.credential_public_key,
                credential_current_sign_count=verified.sign_count,
                require_user_verification=False,
            )
            result["authentication"] = {
                "credentialId": bytes_to_base64url(asserted.credential_id),
                "newSignCount": asserted.new_sign_count,
            }
    except Exception as error:
        result = {"ok": False, "error": f"{type(error).__name__}: {error}"}
    json.dump(result, sys.stdout)


if __name__ == "__main__":
    main()
