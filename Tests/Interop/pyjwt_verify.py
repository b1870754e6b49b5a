"""Verifies a Latchkey access token with PyJWT, a JWT library no one here wrote: the key comes from the server's
JWKS (PyJWKClient, by the token's kid), the signature must be ES256, and exp, iat, aud and iss are checked.

Usage: pyjwt_verify.py JWKS_URL AUDIENCE ISSUER   (the token on standard input)
Prints the verified claims as JSON; exits 1 (with PyJWT's reason) when the token does not verify.
"""
import json
import sys

import jwt


def main():
    jwks_url, audience, issuer = sys.argv[1:4]
    token = sys.stdin.read().strip()
    client = jwt.PyJWKClient(jwks_url, cache_keys=False)
    try:
        key = client.get_signing_key_from_jwt(token)
        header = jwt.get_unverified_header(token)
        claims = jwt.decode(token, key.key, algorithms=["ES256"], audience=audience, issuer=issuer,
                            options={"require": ["exp", "iat", "sub", "aud", "iss", "jti"]})
    except jwt.PyJWTError as error:
        print(f"{type(error).__name__}: {error}", file=sys.stderr)
        return 1
    print(json.dumps({"header": header, "claims": claims}))
    return 0


if __name__ == "__main__":
    sys.exit(main())
