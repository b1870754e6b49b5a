#!/usr/bin/env bash
# Makes (or reuses) a Python virtualenv with the interoperability peers the tests run against:
#   webauthn (py_webauthn, Duo Labs) and fido2 (python-fido2, Yubico), from PyPI,
#   selenium, which drives Chromium in the browser test (Tests/Browser),
#   openapi-spec-validator (the OpenAPI document test), schemathesis (Tests/Contract/schemathesis.sh),
#   aiosmtpd, the SMTP server the email tests send to (Tests/Mail/smtp_server.py),
#   PyJWT, which verifies the access tokens against the served keys (Tests/Interop/pyjwt_verify.py),
#   standardwebhooks, which verifies the webhooks' signatures (Tests/Interop/webhook_receiver.py).
# Usage: scripts/python-env.sh DIR   → prints the virtualenv's python interpreter on the last line.
# scripts/test.sh exports that path as LATCHKEY_TEST_PYTHON; tests that need it skip when it is unset.
set -euo pipefail
dir=${1:?usage: scripts/python-env.sh DIR}
python=${PYTHON:-python3}

if [ ! -x "$dir/bin/python" ]; then
    "$python" -m venv "$dir" >&2
fi
"$dir/bin/python" -m pip install --quiet --disable-pip-version-check "webauthn>=2.0,<3" "fido2>=1.1,<3" "selenium>=4.11,<5" \
    "openapi-spec-validator>=0.7,<1" "schemathesis>=3.39,<5" "aiosmtpd>=1.4,<2" "PyJWT[crypto]>=2.8,<3" \
    "standardwebhooks>=1.0,<2" >&2
"$dir/bin/python" -c 'import webauthn, fido2, selenium, openapi_spec_validator, schemathesis, aiosmtpd, jwt, standardwebhooks' >&2
echo "$dir/bin/python"
