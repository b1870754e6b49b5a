#!/usr/bin/env python3
"""Writes Latchkey's OpenAPI 3.1 document: Sources/LatchkeyServer/Resources/Web/openapi.json.

The server serves it as-is at GET /openapi.json (it is one of the web page's files). Run this script after changing
a route, then commit both: OpenAPIDocumentTests fails when the router and the document name different operations.

Usage: python3 scripts/openapi.py [--check]   (--check: exit 1 when the committed file is not what this writes)
"""
import json
import os
import sys

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
WEB = os.path.join(ROOT, "Sources", "LatchkeyServer", "Resources", "Web")
OUTPUT = os.path.join(WEB, "openapi.json")
# The admin API's document (its own listener, --admin-port): kept with the docs, not served by the public listener.
ADMIN_OUTPUT = os.path.join(ROOT, "docs", "admin-openapi.json")


def ref(name):
    return {"$ref": f"#/components/schemas/{name}"}


def obj(properties, required=(), additional=True, description=None):
    schema = {"type": "object", "properties": properties, "required": list(required)}
    if not additional:
        schema["additionalProperties"] = False
    if description:
        schema["description"] = description
    return schema


STRING = {"type": "string"}
B64URL = {"type": "string", "description": "base64url, no padding (padding and standard base64 are accepted on input)"}
# What a request's names and passwords must be, as far as a schema can say it (docs/SERVER.md has the whole rule). The
# name pattern is the portable part of the PRECIS profile the server applies: it also takes letters, marks and digits of
# any script; the display name's 64 characters keep it within the server's 256 UTF-8 bytes.
USERNAME = {"type": "string", "minLength": 1, "maxLength": 256, "pattern": "^[!-~]+( [!-~]+)*$",
            "description": "an account name (PRECIS UsernameCaseMapped, at most 256 UTF-8 bytes; compared lower-cased)"}
# The characters a display name or a passkey label may not hold: control characters, and format characters other than
# ZWNJ and ZWJ, by the Unicode tables of Swift's standard library (the server's PrintableText; OpenAPIDocumentTests
# holds the two equal). Characters of the Basic Multilingual Plane are regex escapes, the others the characters
# themselves.
REFUSED_IN_TEXT = [(0x0, 0x1F), (0x7F, 0x9F), (0xAD, 0xAD), (0x600, 0x605), (0x61C, 0x61C), (0x6DD, 0x6DD),
                   (0x70F, 0x70F), (0x890, 0x891), (0x8E2, 0x8E2), (0x180E, 0x180E), (0x200B, 0x200B),
                   (0x200E, 0x200F), (0x202A, 0x202E), (0x2060, 0x2064), (0x2066, 0x206F), (0xFEFF, 0xFEFF),
                   (0xFFF9, 0xFFFB), (0x110BD, 0x110BD), (0x110CD, 0x110CD), (0x13430, 0x1343F), (0x1BCA0, 0x1BCA3),
                   (0x1D173, 0x1D17A), (0xE0001, 0xE0001), (0xE0020, 0xE007F)]


def pattern_character(code):
    return "\\u%04x" % code if code <= 0xFFFF else chr(code)


PRINTABLE = "^[^" + "".join(pattern_character(low) + ("" if low == high else "-" + pattern_character(high))
                            for low, high in REFUSED_IN_TEXT) + "]*$"
DISPLAY_NAME = {"type": "string", "maxLength": 64, "pattern": PRINTABLE,
                "description": "a name to show (at most 256 UTF-8 bytes; no control or format characters)"}
PASSKEY_NAME = {"type": ["string", "null"], "maxLength": 64, "pattern": PRINTABLE,
                "description": "a label for the passkey, at most 64 characters (code points), no control or format "
                               "characters; null or empty clears it"}
NEW_PASSWORD = {"type": "string", "minLength": 8, "maxLength": 128,
                "description": "8 to 128 code points as typed (15 at least when it is the account's only way in)"}
ONLY_PASSWORD = {**NEW_PASSWORD, "minLength": 15,
                 "description": "15 to 128 code points as typed: the account's only way in; not a common password"}
# What the server takes as an email address (MailAddress): local@domain, no spaces, controls or <>,;:"\\()[], labels
# not empty nor starting with a hyphen, at most 254 bytes. Narrower than RFC 5321 on purpose.
_EMAIL_CHAR = "[^@\\s<>,;:\"\\\\()\\[\\]\\u0000-\\u001f\\u007f-\\u009f]"
_EMAIL_LABEL = "[^@.\\-\\s<>,;:\"\\\\()\\[\\]\\u0000-\\u001f\\u007f-\\u009f]" + _EMAIL_CHAR.replace("[^@", "[^@.") + "{0,62}"
EMAIL = {"type": "string", "minLength": 3, "maxLength": 254,
         "pattern": "^" + _EMAIL_CHAR + "{1,64}@" + _EMAIL_LABEL + "(\\." + _EMAIL_LABEL + ")*$",
         "description": "an email address: local@domain, without spaces, controls or <>,;:\"\\()[] (compared case-insensitively)"}
DATE = {"type": "string", "format": "date-time"}
BOOL = {"type": "boolean"}
ANY_OBJECT = {"type": "object"}

# Codes every route may answer, whatever it does.
COMMON_CODES = {
    "400": ["request.malformedJSON", "request.missingField", "request.invalidField"],
    "413": ["request.tooLarge"],
    "415": ["request.unsupportedMediaType"],
    "500": ["internalError"],
    "503": ["store.unavailable"],
}

WEBAUTHN_CODES = [
    "malformedCredential", "invalidBase64", "credentialTypeInvalid", "credentialIdMismatch", "credentialNotAllowed",
    "userHandleMismatch", "clientDataMalformed", "typeMismatch", "challengeMismatch", "originNotAllowed",
    "crossOriginNotAllowed", "topOriginNotAllowed", "tokenBindingInvalid", "authenticatorDataMalformed",
    "rpIdHashMismatch", "userPresenceRequired", "userVerificationRequired", "attestedCredentialDataMissing",
    "backupStateInvalid", "attestationObjectMalformed", "attestation.unsupportedFormat", "attestation.untrusted",
    "attestation.<format>.<check>", "publicKeyMalformed", "unsupportedAlgorithm", "algorithmNotAllowed", "badSignature",
    "signCountRegression", "certificate.malformed", "certificate.expired", "certificate.notYetValid",
    "certificate.requirementsNotMet", "authenticator.notAllowed", "authenticator.backupNotAllowed",
    "authenticator.backupRequired",
]


def schemas():
    user_entity = obj({"id": B64URL, "name": STRING, "displayName": STRING}, ["id", "name", "displayName"])
    descriptor = obj({"type": STRING, "id": B64URL, "transports": {"type": "array", "items": STRING}}, ["type", "id"])
    selection = obj({
        "authenticatorAttachment": STRING, "residentKey": STRING, "requireResidentKey": BOOL, "userVerification": STRING,
    })
    creation = obj({
        "rp": obj({"id": STRING, "name": STRING}, ["name"]),
        "user": ref("UserEntity"),
        "challenge": B64URL,
        "pubKeyCredParams": {"type": "array", "items": obj({"type": STRING, "alg": {"type": "integer"}}, ["type", "alg"])},
        "timeout": {"type": "integer"},
        "excludeCredentials": {"type": "array", "items": ref("CredentialDescriptor")},
        "authenticatorSelection": ref("AuthenticatorSelection"),
        "hints": {"type": "array", "items": STRING},
        "attestation": STRING,
        "attestationFormats": {"type": "array", "items": STRING},
        "extensions": ANY_OBJECT,
    }, ["rp", "user", "challenge", "pubKeyCredParams"], description="PublicKeyCredentialCreationOptionsJSON")
    request = obj({
        "challenge": B64URL, "timeout": {"type": "integer"}, "rpId": STRING,
        "allowCredentials": {"type": "array", "items": ref("CredentialDescriptor")},
        "userVerification": STRING, "hints": {"type": "array", "items": STRING}, "extensions": ANY_OBJECT,
    }, ["challenge"], description="PublicKeyCredentialRequestOptionsJSON")
    registration_credential = obj({
        "id": B64URL, "rawId": B64URL, "type": {"type": "string", "const": "public-key"},
        "response": obj({
            "clientDataJSON": B64URL, "attestationObject": B64URL,
            "transports": {"type": "array", "items": STRING}, "publicKey": B64URL, "publicKeyAlgorithm": {"type": "integer"},
            "authenticatorData": B64URL,
        }, ["clientDataJSON", "attestationObject"]),
        "authenticatorAttachment": {"type": ["string", "null"]},
        "clientExtensionResults": ANY_OBJECT,
    }, ["id", "rawId", "type", "response"], description="RegistrationResponseJSON (navigator.credentials.create())")
    authentication_credential = obj({
        "id": B64URL, "rawId": B64URL, "type": {"type": "string", "const": "public-key"},
        "response": obj({
            "clientDataJSON": B64URL, "authenticatorData": B64URL, "signature": B64URL,
            "userHandle": {"type": ["string", "null"]},
        }, ["clientDataJSON", "authenticatorData", "signature"]),
        "authenticatorAttachment": {"type": ["string", "null"]},
        "clientExtensionResults": ANY_OBJECT,
    }, ["id", "rawId", "type", "response"], description="AuthenticationResponseJSON (navigator.credentials.get())")
    signals = obj({
        "rpId": STRING, "userId": B64URL, "allAcceptedCredentialIds": {"type": "array", "items": B64URL},
        "name": STRING, "displayName": STRING,
    }, ["rpId", "userId", "allAcceptedCredentialIds", "name", "displayName"],
        description="What PublicKeyCredential.signalAllAcceptedCredentials and signalCurrentUserDetails take")
    sign_in_methods = obj({"passkeys": {"type": "integer"}, "password": BOOL, "apple": BOOL}, ["passkeys", "password", "apple"])
    profile = obj({"id": B64URL, "name": STRING, "displayName": STRING, "signInMethods": ref("SignInMethods")},
                  ["id", "name", "displayName"])
    ticketed_creation = obj({"ticket": STRING, "options": ref("CreationOptions")}, ["ticket", "options"])
    ticketed_request = obj({"ticket": STRING, "options": ref("RequestOptions")}, ["ticket", "options"])
    session = obj({
        "session": obj({"token": STRING, "expiresAt": DATE}, ["token", "expiresAt"]),
        "user": ref("UserProfile"),
        "signals": ref("CredentialSignals"),
        "passkeyUpgrade": ref("TicketedCreationOptions"),
        "accessToken": ref("AccessTokenResponse"),
    }, ["session", "user"])
    passkey = obj({
        "id": B64URL, "name": {"type": ["string", "null"]}, "createdAt": DATE, "lastUsedAt": {"type": ["string", "null"], "format": "date-time"},
        "transports": {"type": "array", "items": STRING}, "backedUp": BOOL, "backupEligible": BOOL,
        "aaguid": {"type": "string", "format": "uuid"}, "deviceType": {"type": "string", "enum": ["single-device", "multi-device"]},
        "authenticatorName": {"type": ["string", "null"]}, "signals": ref("CredentialSignals"),
    }, ["id", "createdAt", "transports", "backedUp", "backupEligible", "aaguid", "deviceType"])
    error_body = obj({
        "error": obj({
            "code": {"type": "string", "description": "Stable and machine-readable: see each response's codes."},
            "message": {"type": "string", "description": "A human sentence; never a secret."},
            "credentialId": {**B64URL, "description": "credential.notFound: the unknown credential, for signalUnknownCredential"},
            "rpId": {"type": "string", "description": "credential.notFound: the RP ID for signalUnknownCredential"},
            "reauthentication": ref("ReauthenticationOptions"),
        }, ["code", "message"]),
    }, ["error"], description="The error body of every route outside the conformance profile")
    server_response = obj({
        "status": {"type": "string", "enum": ["ok", "failed"]}, "errorMessage": STRING, "errorCode": STRING,
    }, ["status", "errorMessage"], description="The conformance profile's ServerResponse (errors: status failed, errorCode)")
    conformance_creation_request = obj({
        "username": USERNAME, "displayName": DISPLAY_NAME, "authenticatorSelection": ref("AuthenticatorSelection"),
        "attestation": STRING, "extensions": ANY_OBJECT,
    }, ["username", "displayName"])
    conformance_creation_response = {
        "allOf": [ref("ServerResponse"), obj({
            "rp": obj({"id": STRING, "name": STRING}, ["name"]), "user": ref("UserEntity"), "challenge": B64URL,
            "pubKeyCredParams": {"type": "array", "items": ANY_OBJECT}, "timeout": {"type": "integer"},
            "excludeCredentials": {"type": "array", "items": ref("CredentialDescriptor")},
            "authenticatorSelection": ref("AuthenticatorSelection"), "attestation": STRING, "extensions": ANY_OBJECT,
        }, ["rp", "user", "challenge", "pubKeyCredParams", "excludeCredentials", "authenticatorSelection", "attestation"])]
    }
    conformance_request_request = obj({"username": STRING, "userVerification": STRING, "extensions": ANY_OBJECT})
    conformance_request_response = {
        "allOf": [ref("ServerResponse"), obj({
            "challenge": B64URL, "timeout": {"type": "integer"}, "rpId": STRING,
            "allowCredentials": {"type": "array", "items": ref("CredentialDescriptor")}, "userVerification": STRING,
            "extensions": ANY_OBJECT,
        }, ["challenge", "allowCredentials", "userVerification"])]
    }
    return {
        "UserEntity": user_entity, "CredentialDescriptor": descriptor, "AuthenticatorSelection": selection,
        "CreationOptions": creation, "RequestOptions": request,
        "RegistrationCredential": registration_credential, "AuthenticationCredential": authentication_credential,
        "CredentialSignals": signals, "SignInMethods": sign_in_methods, "UserProfile": profile,
        "SignedOutEverywhereResponse": obj({"remainingSignInMethods": ref("SignInMethods")}, ["remainingSignInMethods"]),
        "ReauthenticationOptions": obj({
            "passkey": ref("TicketedRequestOptions"), "password": BOOL, "apple": BOOL,
        }, ["password", "apple"], description="reauth.required: how the user can prove who they are again"),
        "ReauthenticatePasswordRequest": obj({"password": STRING}, ["password"]),
        "RecoveryCodes": obj({"codes": {"type": "array", "items": STRING}}, ["codes"]),
        "RecoveryCodeStatus": obj({"remaining": {"type": "integer", "minimum": 0}}, ["remaining"]),
        "RecoveryOptionsRequest": {"oneOf": [
            obj({"username": STRING, "code": {"type": "string", "maxLength": 64}}, ["username", "code"], additional=False),
            obj({"email": EMAIL, "code": {"type": "string", "maxLength": 64}}, ["email", "code"], additional=False),
            obj({"token": {**B64URL, "minLength": 43, "maxLength": 43}}, ["token"], additional=False),
        ], "description": "a recovery code with its account's name, a code sent to a verified address, or an operator's recovery link token"},
        "AccessTokenResponse": obj({
            "accessToken": {"type": "string", "description": "a JWT (ES256) to verify with /.well-known/jwks.json"},
            "tokenType": {"type": "string", "enum": ["Bearer"]}, "expiresAt": DATE,
            "refreshToken": {"type": "string", "description": "single use: POST /v1/token for the next pair"},
        }, ["accessToken", "tokenType", "expiresAt", "refreshToken"]),
        "RefreshTokenRequest": obj({"refreshToken": {"type": "string", "maxLength": 256}}, ["refreshToken"]),
        "JWKSet": obj({"keys": {"type": "array", "items": obj({
            "kty": {"type": "string", "enum": ["EC"]}, "crv": {"type": "string", "enum": ["P-256"]}, "x": B64URL, "y": B64URL,
            "kid": STRING, "alg": {"type": "string", "enum": ["ES256"]}, "use": {"type": "string", "enum": ["sig"]},
        }, ["kty", "crv", "x", "y", "kid"])}}, ["keys"]),
        "OpenIDConfiguration": obj({"issuer": STRING, "jwks_uri": STRING}, ["issuer", "jwks_uri"]),
        "EmailAddress": obj({"address": STRING, "verified": BOOL, "primary": BOOL, "createdAt": DATE},
                            ["address", "verified", "primary", "createdAt"]),
        "EmailList": obj({"emails": {"type": "array", "items": ref("EmailAddress")}}, ["emails"]),
        "EmailRequest": obj({"address": EMAIL}, ["address"]),
        "EmailVerifyRequest": obj({"address": EMAIL, "code": {"type": "string", "maxLength": 64}}, ["address", "code"]),
        "RecoveryEmailRequest": obj({"email": EMAIL}, ["email"]),
        "SessionSummary": obj({
            "id": {**B64URL, "description": "DELETE /v1/sessions/{id} ends the session"}, "createdAt": DATE,
            "lastSeenAt": {"type": ["string", "null"], "format": "date-time"}, "expiresAt": DATE,
            "device": {"type": ["string", "null"]}, "network": {"type": ["string", "null"]}, "current": BOOL,
        }, ["id", "createdAt", "expiresAt", "current"]),
        "SessionList": obj({"sessions": {"type": "array", "items": ref("SessionSummary")}}, ["sessions"]),
        "TicketedCreationOptions": ticketed_creation, "TicketedRequestOptions": ticketed_request,
        "SessionResponse": session, "PasskeySummary": passkey,
        "PasskeyList": obj({"passkeys": {"type": "array", "items": ref("PasskeySummary")}, "signals": ref("CredentialSignals")}, ["passkeys"]),
        "PasskeyRemoval": obj({"signals": {"anyOf": [ref("CredentialSignals"), {"type": "null"}]}}),
        "ErrorBody": error_body, "ServerResponse": server_response,
        "ServerCreationOptionsRequest": conformance_creation_request,
        "ServerCreationOptionsResponse": conformance_creation_response,
        "ServerRequestOptionsRequest": conformance_request_request,
        "ServerRequestOptionsResponse": conformance_request_response,
        "RegistrationOptionsRequest": obj({"username": USERNAME, "displayName": DISPLAY_NAME}, ["username"]),
        "AuthenticationOptionsRequest": obj({"username": {"type": ["string", "null"]}}),
        "RegistrationVerifyRequest": obj({"ticket": STRING, "credential": ref("RegistrationCredential")}, ["ticket", "credential"]),
        "AuthenticationVerifyRequest": obj({"ticket": STRING, "credential": ref("AuthenticationCredential")}, ["ticket", "credential"]),
        "AccountCreationVerifyRequest": obj({
            "ticket": STRING, "credential": ref("RegistrationCredential"), "username": USERNAME,
            "displayName": DISPLAY_NAME,
        }, ["ticket", "credential", "username"]),
        "AddPasskeyOptionsRequest": obj({"name": PASSKEY_NAME, "mediation": {"type": ["string", "null"], "enum": ["conditional", None]}}),
        "RenamePasskeyRequest": obj({"name": PASSKEY_NAME}, ["name"]),
        "PasswordRegisterRequest": obj({"username": USERNAME, "displayName": DISPLAY_NAME, "password": ONLY_PASSWORD},
                                       ["username", "password"]),
        "PasswordSignInRequest": obj({"username": STRING, "password": STRING}, ["username", "password"]),
        "SetPasswordRequest": obj({"currentPassword": STRING, "newPassword": NEW_PASSWORD}, ["newPassword"]),
        "AppleNonceResponse": obj({"nonce": STRING, "expiresAt": DATE}, ["nonce", "expiresAt"]),
        "AppleSignInRequest": obj({
            "identityToken": STRING, "authorizationCode": {"type": ["string", "null"]}, "rawNonce": {"type": ["string", "null"]},
            "fullName": {"anyOf": [STRING, obj({"givenName": {"type": ["string", "null"]}, "familyName": {"type": ["string", "null"]}}), {"type": "null"}]},
            "email": {"type": ["string", "null"]}, "clientId": {"type": ["string", "null"]},
        }, ["identityToken"]),
        "AppleNotification": obj({"payload": {"type": "string", "description": "Apple's signed JWS"}}, ["payload"]),
        "AppleCallbackForm": obj({
            "state": STRING, "code": STRING, "id_token": STRING, "user": {"type": "string", "description": "JSON text (first sign-in only)"},
            "error": STRING,
        }, ["state"]),
        "Health": obj({"status": {"type": "string", "const": "ok"}}, ["status"]),
        "WebConfig": obj({"appleSignIn": BOOL, "rpName": STRING, "email": BOOL}, ["appleSignIn", "rpName", "email"]),
        "AppleAppSiteAssociation": obj({"webcredentials": obj({"apps": {"type": "array", "items": STRING}}, ["apps"])}, ["webcredentials"]),
        "AssetLinks": {"type": "array", "items": obj({"relation": {"type": "array", "items": STRING}, "target": ANY_OBJECT}, ["relation", "target"])},
        "RelatedOrigins": obj({"origins": {"type": "array", "items": STRING}}, ["origins"]),
    }


JSON = "application/json"


def json_body(schema, description):
    return {"description": description, "content": {JSON: {"schema": schema}}}


def errors(codes, conformance=False):
    """Error responses by status, each listing the codes it may carry (and the codes every route may answer)."""
    merged = {status: list(names) for status, names in COMMON_CODES.items()}
    for status, names in codes.items():
        merged.setdefault(status, [])
        merged[status] = names + [name for name in merged[status] if name not in names]
    schema = ref("ServerResponse") if conformance else ref("ErrorBody")
    responses = {}
    for status in sorted(merged):
        names = merged[status]
        responses[status] = {
            "description": "Error codes: " + ", ".join(f"`{name}`" for name in names),
            "content": {JSON: {"schema": schema}},
            "x-error-codes": names,
        }
    return responses


def operation(op_id, summary, responses, body=None, security=None, tags=(), optional_body=False, links=None):
    result = {"operationId": op_id, "summary": summary, "tags": list(tags), "responses": responses}
    if body is not None:
        result["requestBody"] = {"required": not optional_body, "content": {JSON: {"schema": body}}}
    if security is not None:
        result["security"] = security
    if links:
        for status, link in links.items():
            result["responses"][status]["links"] = link
    return result


SESSION = [{"sessionCookie": []}, {"bearer": []}]
OPTIONAL_SESSION = SESSION + [{}]
CEREMONY = ["ceremony.notFound", "ceremony.expired"]
ORIGIN = ["request.originNotAllowed"]
RATE = {"429": ["request.rateLimited"]}
SESSION_ERRORS = {"400": ["session.ambiguous"], "401": ["session.required", "session.invalid"], "403": ORIGIN}
REAUTH_ERRORS = {**SESSION_ERRORS, "401": SESSION_ERRORS["401"] + ["reauth.required"]}


def with_errors(success, codes, conformance=False):
    responses = dict(success)
    responses.update(errors(codes, conformance))
    return responses


def paths():
    p = {}
    conformance_errors = {
        "400": WEBAUTHN_CODES + ["user.invalidName", "user.invalidDisplayName", "ceremony.cookieMissing"],
        "401": ["session.required"], "404": CEREMONY + ["credential.notFound"], "409": ["user.nameTaken", "user.nameConfusable"], "410": ["ceremony.expired"],
        **RATE,
    }
    ok = {"200": json_body(ref("ServerResponse"), "status ok; the result sets the session cookie")}
    p["/attestation/options"] = {"post": operation(
        "conformanceAttestationOptions", "Registration options (sets the latchkey_ceremony cookie)",
        with_errors({"200": json_body(ref("ServerCreationOptionsResponse"), "options")}, conformance_errors, True),
        body=ref("ServerCreationOptionsRequest"), security=OPTIONAL_SESSION, tags=["conformance"])}
    p["/attestation/result"] = {"post": operation(
        "conformanceAttestationResult", "Verify a registration (needs the latchkey_ceremony cookie)",
        with_errors(ok, conformance_errors, True), body=ref("RegistrationCredential"), tags=["conformance"])}
    p["/assertion/options"] = {"post": operation(
        "conformanceAssertionOptions", "Authentication options (sets the latchkey_ceremony cookie)",
        with_errors({"200": json_body(ref("ServerRequestOptionsResponse"), "options")}, conformance_errors, True),
        body=ref("ServerRequestOptionsRequest"), tags=["conformance"])}
    p["/assertion/result"] = {"post": operation(
        "conformanceAssertionResult", "Verify an assertion (needs the latchkey_ceremony cookie)",
        with_errors(ok, conformance_errors, True), body=ref("AuthenticationCredential"), tags=["conformance"])}

    ceremony_errors = {
        "400": WEBAUTHN_CODES + ["user.invalidName", "user.invalidDisplayName"],
        "404": CEREMONY + ["credential.notFound"], "409": ["user.nameTaken", "user.nameConfusable", "credential.concurrentSignIn"], "410": ["ceremony.expired"],
        **RATE,
    }

    def verify_link(verify_op):
        """Options → verify: the ticket the options answer carries goes in the verify request (stateful testing)."""
        return {"200": {"verify": {"operationId": verify_op, "requestBody": {"ticket": "$response.body#/ticket"}}}}

    created_session = {"201": json_body(ref("SessionResponse"), "signed up; sets the session cookie")}
    p["/v1/passkeys/registration/options"] = {"post": operation(
        "registrationOptions", "Sign-up: options for a new account's first passkey",
        with_errors({"200": json_body(ref("TicketedCreationOptions"), "options and the ceremony's ticket")}, ceremony_errors),
        body=ref("RegistrationOptionsRequest"), tags=["passkeys"], links=verify_link("registrationVerify"))}
    p["/v1/passkeys/registration/verify"] = {"post": operation(
        "registrationVerify", "Sign-up: verify the new passkey", with_errors(created_session, ceremony_errors),
        body=ref("RegistrationVerifyRequest"), tags=["passkeys"])}
    p["/v1/passkeys/account-creation/options"] = {"post": operation(
        "accountCreationOptions", "Sign-up through a sheet that collects the name: options (no name yet)",
        with_errors({"200": json_body(ref("TicketedCreationOptions"), "options and the ceremony's ticket")}, ceremony_errors),
        tags=["passkeys"], links=verify_link("accountCreationVerify"))}
    p["/v1/passkeys/account-creation/verify"] = {"post": operation(
        "accountCreationVerify", "Sign-up through a sheet: verify, naming the account", with_errors(created_session, ceremony_errors),
        body=ref("AccountCreationVerifyRequest"), tags=["passkeys"])}
    p["/v1/passkeys/authentication/options"] = {"post": operation(
        "authenticationOptions", "Sign-in: options (a username, or none for a discoverable sign-in)",
        with_errors({"200": json_body(ref("TicketedRequestOptions"), "options and the ceremony's ticket")}, ceremony_errors),
        body=ref("AuthenticationOptionsRequest"), optional_body=True, tags=["passkeys"], links=verify_link("authenticationVerify"))}
    p["/v1/passkeys/authentication/verify"] = {"post": operation(
        "authenticationVerify", "Sign-in: verify the assertion",
        with_errors({"200": json_body(ref("SessionResponse"), "signed in; sets the session cookie")}, ceremony_errors),
        body=ref("AuthenticationVerifyRequest"), tags=["passkeys"])}

    p["/v1/me"] = {"get": operation(
        "me", "The signed-in user and the account's ways in",
        with_errors({"200": json_body(ref("UserProfile"), "the user")}, SESSION_ERRORS), security=SESSION, tags=["account"])}
    p["/v1/me/passkeys"] = {"get": operation(
        "listPasskeys", "The signed-in user's passkeys",
        with_errors({"200": json_body(ref("PasskeyList"), "the passkeys")}, SESSION_ERRORS), security=SESSION, tags=["account"])}
    id_parameter = [{"name": "id", "in": "path", "required": True, "schema": {**B64URL, "minLength": 1, "pattern": "^[A-Za-z0-9_-]+$"}, "description": "the credential ID"}]
    passkey_errors = {**REAUTH_ERRORS, "400": ["passkey.invalidName", "invalidBase64"], "404": ["passkey.notFound"], "409": ["passkey.lastCredential"]}
    p["/v1/me/passkeys/{id}"] = {
        "parameters": id_parameter,
        "patch": operation("renamePasskey", "Rename a passkey", with_errors({"200": json_body(ref("PasskeySummary"), "the renamed passkey")}, passkey_errors),
                           body=ref("RenamePasskeyRequest"), security=SESSION, tags=["account"]),
        "delete": operation("removePasskey", "Remove a passkey (not the account's last way in)",
                            with_errors({"200": json_body(ref("PasskeyRemoval"), "removed")}, passkey_errors), security=SESSION, tags=["account"]),
    }
    add_errors = {**REAUTH_ERRORS, **ceremony_errors, "401": REAUTH_ERRORS["401"], "400": ceremony_errors["400"] + ["passkey.invalidName", "passkey.invalidMediation"],
                  "403": ORIGIN + ["session.wrongUser"]}
    p["/v1/me/passkeys/registration/options"] = {"post": operation(
        "addPasskeyOptions", "Add a passkey to the signed-in account: options",
        with_errors({"200": json_body(ref("TicketedCreationOptions"), "options and the ceremony's ticket")}, add_errors),
        body=ref("AddPasskeyOptionsRequest"), optional_body=True, security=SESSION, tags=["account"], links=verify_link("addPasskeyVerify"))}
    p["/v1/me/passkeys/registration/verify"] = {"post": operation(
        "addPasskeyVerify", "Add a passkey to the signed-in account: verify",
        with_errors({"201": json_body(ref("PasskeySummary"), "the new passkey")}, add_errors),
        body=ref("RegistrationVerifyRequest"), security=SESSION, tags=["account"],
        # The new passkey's ID is the one renaming and removing take (stateful testing follows these).
        links={"201": {op: {"operationId": op, "parameters": {"path.id": "$response.body#/id"}}
                       for op in ("renamePasskey", "removePasskey")}})}
    signed_out = {"204": {"description": "signed out; the session cookie is cleared"}}
    p["/v1/session/logout"] = {"post": operation("logout", "End this session", with_errors(signed_out, SESSION_ERRORS), security=SESSION, tags=["account"])}
    p["/v1/sessions"] = {
        "get": operation(
            "listSessions", "The signed-in account's live sessions (its devices), newest first",
            with_errors({"200": json_body(ref("SessionList"), "the sessions")}, SESSION_ERRORS), security=SESSION, tags=["account"]),
        "delete": operation(
            "signOutEverywhere", "End every session of the signed-in account, this one included (re-authenticated)",
            with_errors({"200": json_body(ref("SignedOutEverywhereResponse"),
                                          "signed out; the session cookie is cleared; the ways in that remain")},
                        REAUTH_ERRORS), security=SESSION, tags=["account"]),
    }
    p["/v1/sessions/{id}"] = {
        "parameters": [{"name": "id", "in": "path", "required": True,
                        "schema": {**B64URL, "minLength": 1, "pattern": "^[A-Za-z0-9_-]+$"},
                        "description": "the session's id from GET /v1/sessions"}],
        "delete": operation("endSession", "End one of the account's sessions",
                            with_errors({"204": {"description": "ended (the cookie is cleared when it was this session)"}},
                                        {**SESSION_ERRORS, "404": ["session.notFound"]}), security=SESSION, tags=["account"]),
    }
    p["/v1/me/recovery-codes"] = {
        "get": operation("recoveryCodeStatus", "How many recovery codes the account has left",
                         with_errors({"200": json_body(ref("RecoveryCodeStatus"), "the count")}, SESSION_ERRORS),
                         security=SESSION, tags=["account"]),
        "post": operation("generateRecoveryCodes", "A new set of recovery codes, shown once (re-authenticated)",
                          with_errors({"201": json_body(ref("RecoveryCodes"), "the codes")}, REAUTH_ERRORS),
                          security=SESSION, tags=["account"]),
    }
    recovery_errors = {**ceremony_errors, "401": ["recovery.invalid"], "404": ["email.disabled"],
                       "429": ["request.rateLimited", "recovery.throttled"]}
    disabled = {"404": ["email.disabled"]}
    p["/v1/me/emails"] = {
        "get": operation("listEmails", "The signed-in account's email addresses, the primary first",
                         with_errors({"200": json_body(ref("EmailList"), "the addresses")}, {**SESSION_ERRORS, **disabled}),
                         security=SESSION, tags=["email"]),
        "post": operation("addEmail", "Add an address (re-authenticated): a six-digit code is sent to it",
                          with_errors({"202": json_body(ref("EmailAddress"), "added unverified; the code is on its way")},
                                      {**REAUTH_ERRORS, **disabled, "400": REAUTH_ERRORS["400"] + ["email.invalid"],
                                       "409": ["email.alreadyVerified", "email.limit"],
                                       "429": ["request.rateLimited", "email.throttled"]}),
                          body=ref("EmailRequest"), security=SESSION, tags=["email"]),
    }
    p["/v1/me/emails/verify"] = {"post": operation(
        "verifyEmail", "Verify an added address with the code sent to it",
        with_errors({"200": json_body(ref("EmailAddress"), "verified (primary when it is the account's first)")},
                    {**SESSION_ERRORS, **disabled, "400": SESSION_ERRORS["400"] + ["email.invalid", "email.codeInvalid"],
                     "404": ["email.disabled", "email.notFound"], "409": ["email.taken"],
                     "429": ["request.rateLimited", "email.throttled"]}),
        body=ref("EmailVerifyRequest"), security=SESSION, tags=["email"])}
    p["/v1/me/emails/primary"] = {"post": operation(
        "makePrimaryEmail", "Send notices to this verified address from now on (re-authenticated)",
        with_errors({"200": json_body(ref("EmailList"), "the addresses")},
                    {**REAUTH_ERRORS, "400": REAUTH_ERRORS["400"] + ["email.invalid"], "404": ["email.disabled", "email.notFound"]}),
        body=ref("EmailRequest"), security=SESSION, tags=["email"])}
    p["/v1/me/emails/remove"] = {"post": operation(
        "removeEmail", "Remove an address (re-authenticated); it and the primary are told",
        with_errors({"204": {"description": "removed"}},
                    {**REAUTH_ERRORS, "400": REAUTH_ERRORS["400"] + ["email.invalid"], "404": ["email.disabled", "email.notFound"]}),
        body=ref("EmailRequest"), security=SESSION, tags=["email"])}
    p["/v1/token"] = {"post": operation(
        "refreshAccessToken", "Spend a refresh token for the next access token and refresh token",
        with_errors({"200": json_body(ref("AccessTokenResponse"), "the next pair (no-store)")},
                    {**ceremony_errors, "401": ["token.invalid", "token.reused"], "404": ["token.disabled"]}),
        body=ref("RefreshTokenRequest"), tags=["tokens"])}
    p["/v1/recovery/email"] = {"post": operation(
        "recoveryEmail", "Recovery: send a code to a verified address (the same answer whether or not an account has it)",
        with_errors({"202": json_body(ANY_OBJECT, "accepted")},
                    {**ceremony_errors, "400": ceremony_errors["400"] + ["email.invalid"], "404": ["email.disabled"],
                     "429": ["request.rateLimited", "email.throttled"]}),
        body=ref("RecoveryEmailRequest"), tags=["recovery"])}
    p["/v1/recovery/options"] = {"post": operation(
        "recoveryOptions", "Recovery: a code opens a registration ceremony for the account's new passkey",
        with_errors({"200": json_body(ref("TicketedCreationOptions"), "options and the ceremony's ticket")}, recovery_errors),
        body=ref("RecoveryOptionsRequest"), tags=["recovery"], links=verify_link("recoveryVerify"))}
    p["/v1/recovery/verify"] = {"post": operation(
        "recoveryVerify", "Recovery: verify the new passkey and sign in",
        with_errors(created_session, recovery_errors), body=ref("RegistrationVerifyRequest"), tags=["recovery"])}
    reauthenticated = {"200": json_body(ref("SessionResponse"), "a new verified session (sets the session cookie); the old one ended")}
    p["/v1/session/reauthenticate"] = {"post": operation(
        "reauthenticate", "Re-authenticate with a passkey, over the options of a reauth.required answer",
        with_errors(reauthenticated, {**SESSION_ERRORS, **ceremony_errors, "401": SESSION_ERRORS["401"],
                                      "403": ORIGIN + ["session.wrongUser"]}),
        body=ref("AuthenticationVerifyRequest"), security=SESSION, tags=["account"])}
    p["/v1/account"] = {"delete": operation(
        "deleteAccount", "Delete the signed-in account (re-authenticated; revoking its Apple authorizations first)",
        with_errors(signed_out, {**REAUTH_ERRORS, "502": ["apple.revokeFailed"]}), security=SESSION, tags=["account"])}

    password_errors = {
        "400": ["user.invalidName", "user.invalidDisplayName", "password.tooShort", "password.tooLong", "password.tooCommon", "password.currentRequired"],
        "401": ["password.invalid", "session.required", "session.invalid", "reauth.required"], "403": ORIGIN, "404": ["password.disabled", "password.notSet"],
        "409": ["user.nameTaken", "user.nameConfusable", "password.lastWayIn"], "429": ["request.rateLimited", "password.throttled"],
    }
    p["/v1/password/register"] = {"post": operation(
        "passwordRegister", "Password sign-up", with_errors({"201": json_body(ref("SessionResponse"), "signed up; passkeyUpgrade offers a passkey")}, password_errors),
        body=ref("PasswordRegisterRequest"), tags=["passwords"])}
    p["/v1/password/signin"] = {"post": operation(
        "passwordSignIn", "Password sign-in", with_errors({"200": json_body(ref("SessionResponse"), "signed in")}, password_errors),
        body=ref("PasswordSignInRequest"), tags=["passwords"])}
    no_content = {"204": {"description": "done"}}
    p["/v1/session/reauthenticate/password"] = {"post": operation(
        "reauthenticatePassword", "Re-authenticate with the account's password",
        with_errors(reauthenticated, password_errors), body=ref("ReauthenticatePasswordRequest"), security=SESSION, tags=["passwords"])}
    p["/v1/password"] = {
        "put": operation("setPassword", "Set or change the signed-in account's password", with_errors(no_content, password_errors),
                         body=ref("SetPasswordRequest"), security=SESSION, tags=["passwords"]),
        "delete": operation("removePassword", "Remove the password while another way in remains", with_errors(no_content, password_errors),
                            security=SESSION, tags=["passwords"]),
    }

    apple_errors = {
        "400": ["apple.nonceRequired", "apple.nonceInvalid", "apple.nonceExpired", "apple.codeRequired", "apple.codeMismatch",
                "apple.clientMismatch", "apple.tokenReplayed", "apple.tokenTooOld", "apple.stateInvalid", "apple.stateExpired",
                "apple.stateNotBound", "apple.callbackIncomplete", "apple.<AppleSignInError code>"],
        "404": ["apple.disabled"], "409": ["apple.linkedToAnotherUser"], "502": ["apple.<AppleSignInError code>"], **RATE,
    }
    p["/v1/apple/nonce"] = {"post": operation(
        "appleNonce", "A single-use nonce for one app sign-in", with_errors({"200": json_body(ref("AppleNonceResponse"), "the nonce")}, apple_errors), tags=["apple"])}
    p["/v1/apple/signin"] = {"post": operation(
        "appleSignIn", "Sign in (or link, with a session) with an app's Apple ID credential",
        with_errors({"200": json_body(ref("SessionResponse"), "signed in"), "201": json_body(ref("SessionResponse"), "account created")}, apple_errors),
        body=ref("AppleSignInRequest"), security=OPTIONAL_SESSION, tags=["apple"])}
    p["/v1/apple/notifications"] = {"post": operation(
        "appleNotifications", "Apple's server-to-server notifications", with_errors({"200": {"description": "handled"}}, apple_errors),
        body=ref("AppleNotification"), tags=["apple"])}
    p["/v1/apple/authorize"] = {"get": operation(
        "appleAuthorize", "Start the web flow: redirect to Apple's authorize page",
        with_errors({"302": {"description": "to Apple", "headers": {"Location": {"schema": STRING}}}}, apple_errors), security=OPTIONAL_SESSION, tags=["apple"])}
    callback = operation(
        "appleCallback", "The form Apple posts at the end of the web flow",
        with_errors({"303": {"description": "to the web page, signed in (or with ?apple_error=)", "headers": {"Location": {"schema": STRING}}}}, apple_errors),
        tags=["apple"])
    callback["requestBody"] = {"required": True, "content": {"application/x-www-form-urlencoded": {"schema": ref("AppleCallbackForm")}}}
    p["/v1/apple/callback"] = {"post": callback}

    cached = {"Cache-Control": {"schema": STRING}}
    for path, op_id, schema in [
        ("/.well-known/apple-app-site-association", "appleAppSiteAssociation", "AppleAppSiteAssociation"),
        ("/.well-known/assetlinks.json", "assetLinks", "AssetLinks"),
        ("/.well-known/webauthn", "webAuthnRelatedOrigins", "RelatedOrigins"),
    ]:
        response = json_body(ref(schema), "the file")
        response["headers"] = cached
        p[path] = {"get": operation(op_id, f"GET {path}", {"200": response}, tags=["well-known"])}
    token_disabled = {"404": ["token.disabled"]}
    jwks = {"description": "the signing keys", "headers": cached,
            "content": {"application/jwk-set+json": {"schema": ref("JWKSet")}}}
    p["/.well-known/jwks.json"] = {"get": operation(
        "jwks", "The keys that sign access tokens (404 token.disabled without --access-token-audience)",
        with_errors({"200": jwks}, token_disabled), tags=["well-known"])}
    openid = json_body(ref("OpenIDConfiguration"), "the issuer and where its keys are")
    openid["headers"] = cached
    p["/.well-known/openid-configuration"] = {"get": operation(
        "openIDConfiguration", "OpenID provider metadata, as far as it applies (issuer, jwks_uri)",
        with_errors({"200": openid}, token_disabled), tags=["well-known"])}
    p["/healthz"] = {"get": operation("health", "Liveness: 200 while the process serves", with_errors({"200": json_body(ref("Health"), "alive")}, {}), tags=["operations"])}
    p["/readyz"] = {"get": operation("ready", "Readiness: 200 when the database answers too",
                                     with_errors({"200": json_body(ref("Health"), "ready")}, {"503": ["store.unavailable", "store.busy"]}), tags=["operations"])}
    p["/metrics"] = {"get": operation("metrics", "Prometheus metrics (off without --metrics-token-file)", with_errors({
        "200": {"description": "Prometheus text exposition", "content": {"text/plain": {"schema": STRING}}}},
        {"401": ["metrics.unauthorized"], "404": ["metrics.disabled"]}), security=[{"bearer": []}], tags=["operations"])}
    p["/v1/web/config"] = {"get": operation("webConfig", "What the web page shows", {"200": json_body(ref("WebConfig"), "the page's settings")}, tags=["web"])}

    files = sorted(name for name in os.listdir(WEB) if not name.startswith("."))
    if "openapi.json" not in files:
        files.append("openapi.json")
    for name in sorted(files):
        path = "/" if name == "index.html" else "/" + name
        content_type = content_type_of(name)
        ok_file = {"description": name, "content": {content_type: {"schema": STRING}}, "headers": {"ETag": {"schema": STRING}}}
        not_modified = {"description": "If-None-Match named the current ETag"}
        slug = "".join(part.capitalize() for part in name.replace(".", "-").split("-"))
        p[path] = {
            "get": operation(f"get{slug}", f"The web page's {name}", {"200": ok_file, "304": not_modified}, tags=["web"]),
            "head": operation(f"head{slug}", f"Headers of {name}", {"200": {"description": name, "headers": {"ETag": {"schema": STRING}}}, "304": not_modified}, tags=["web"]),
        }
    return p


def content_type_of(name):
    extension = name.rsplit(".", 1)[-1].lower()
    return {"html": "text/html", "css": "text/css", "js": "text/javascript", "json": "application/json"}.get(extension, "application/octet-stream")


def document():
    return {
        "openapi": "3.1.0",
        "info": {
            "title": "Latchkey",
            "version": "1",
            "description": (
                "Passkeys (WebAuthn) relying party, password accounts and Sign in with Apple. Two profiles share one server: "
                "the FIDO conformance profile (/attestation/*, /assertion/*; ceremony state in the latchkey_ceremony cookie; "
                "errors as ServerResponse with status failed) and the native API (/v1/...; ceremony state behind a ticket; "
                "errors as ErrorBody). Generated by scripts/openapi.py; see docs/SERVER.md."
            ),
        },
        "servers": [{"url": "/"}],
        "tags": [{"name": name} for name in ["conformance", "passkeys", "account", "passwords", "apple", "well-known", "operations", "web"]],
        "paths": paths(),
        "components": {
            "schemas": schemas(),
            "securitySchemes": {
                "sessionCookie": {"type": "apiKey", "in": "cookie", "name": "latchkey_session",
                                  "description": "Set by every sign-in; HttpOnly, SameSite=Lax. Cookie requests from a foreign Origin are refused."},
                "bearer": {"type": "http", "scheme": "bearer", "description": "The session.token of a SessionResponse (apps)."},
            },
        },
    }


def admin_document():
    admin = [{"adminKey": []}]
    unauthorized = {"401": ["admin.unauthorized"]}
    user_id = {"name": "id", "in": "path", "required": True, "schema": {"type": "string", "format": "uuid"}, "description": "the user's id"}
    not_found = {**unauthorized, "404": ["admin.userNotFound"]}

    def op(op_id, summary, success, codes, body=None, parameters=None):
        result = operation(op_id, summary, with_errors(success, codes), body=body, security=admin, tags=["admin"],
                           optional_body=True)
        if parameters:
            result["parameters"] = parameters
        return result
    query = [{"name": name, "in": "query", "required": False, "schema": STRING} for name in ("name", "email", "credentialId", "appleId")]
    summary = obj({"id": {"type": "string", "format": "uuid"}, "name": STRING, "displayName": STRING, "createdAt": DATE},
                  ["id", "name", "displayName", "createdAt"])
    schemas_all = schemas()
    schemas_all.update({
        "AdminUserSummary": summary,
        "AdminUserList": obj({"users": {"type": "array", "items": ref("AdminUserSummary")}}, ["users"]),
        "AdminUserDetail": obj({
            "user": ref("AdminUserSummary"), "signInMethods": ref("SignInMethods"),
            "passkeys": {"type": "array", "items": ref("PasskeySummary")},
            "sessions": {"type": "array", "items": ref("SessionSummary")},
            "emails": {"type": "array", "items": ref("EmailAddress")},
        }, ["user", "signInMethods", "passkeys", "sessions", "emails"]),
        "AdminEndedSessions": obj({"ended": {"type": "integer", "minimum": 0}}, ["ended"]),
        "AdminRecoveryLinkRequest": obj({"origin": STRING, "lifetime": {"type": "integer", "minimum": 60, "maximum": 604800}}),
        "AdminRecoveryLink": obj({"token": STRING, "url": STRING, "expiresAt": DATE}, ["token", "url", "expiresAt"]),
        "AdminAuditEvent": obj({
            "sequence": {"type": "integer", "minimum": 1}, "type": STRING, "occurredAt": DATE,
            "userId": {"type": "string", "format": "uuid"}, "actor": STRING, "ip": STRING, "userAgent": STRING,
            "authenticator": STRING, "detail": STRING,
        }, ["sequence", "type", "occurredAt"]),
        "AdminAuditEventList": obj({"events": {"type": "array", "items": ref("AdminAuditEvent")},
                                    "next": {"type": "integer", "minimum": 1}}, ["events"]),
        "AdminWebhookEndpoint": obj({
            "name": STRING, "url": STRING, "events": {"type": "array", "items": STRING},
            "pending": {"type": "integer", "minimum": 0}, "delivered": {"type": "integer", "minimum": 0},
            "failed": {"type": "integer", "minimum": 0}, "lastAttemptAt": DATE, "lastError": STRING,
        }, ["name", "url", "pending", "delivered", "failed"]),
        "AdminWebhookList": obj({"endpoints": {"type": "array", "items": ref("AdminWebhookEndpoint")}}, ["endpoints"]),
    })
    audit_query = [
        {"name": "user", "in": "query", "required": False, "schema": {"type": "string", "format": "uuid"}, "description": "one user's events"},
        {"name": "since", "in": "query", "required": False, "schema": DATE, "description": "events at or after this time (ISO 8601)"},
        {"name": "until", "in": "query", "required": False, "schema": DATE, "description": "events before this time (ISO 8601)"},
        {"name": "before", "in": "query", "required": False, "schema": {"type": "integer", "minimum": 1}, "description": "the previous page's next"},
        {"name": "limit", "in": "query", "required": False, "schema": {"type": "integer", "minimum": 1, "maximum": 1000}, "description": "at most this many (100)"},
    ]
    p = {
        "/admin/v1/users": {"get": op("findUsers", "Find a user by name, verified email, credential ID or Apple ID (exactly one)",
                                      {"200": json_body(ref("AdminUserList"), "the matches")},
                                      {**unauthorized, "400": ["admin.invalidQuery"]}, parameters=query)},
        "/admin/v1/users/{id}": {
            "parameters": [user_id],
            "get": op("showUser", "A user with passkeys, sessions, addresses and ways in",
                      {"200": json_body(ref("AdminUserDetail"), "the user")}, not_found),
            "delete": op("deleteUser", "Delete the user (revoking Apple authorizations first)",
                         {"204": {"description": "deleted"}}, {**not_found, "502": ["apple.revokeFailed"]}),
        },
        "/admin/v1/users/{id}/passkeys/{credential}": {
            "parameters": [user_id, {"name": "credential", "in": "path", "required": True, "schema": B64URL, "description": "the credential ID"},
                           {"name": "force", "in": "query", "required": False, "schema": {"type": "string", "enum": ["true", "false"]}}],
            "delete": op("removeUserPasskey", "Remove one of the user's passkeys (the last way in only with force=true)",
                         {"204": {"description": "removed"}}, {**unauthorized, "404": ["admin.userNotFound", "passkey.notFound"], "409": ["passkey.lastCredential"]}),
        },
        "/admin/v1/users/{id}/sessions": {
            "parameters": [user_id],
            "delete": op("endUserSessions", "End every session of the user", {"200": json_body(ref("AdminEndedSessions"), "how many")}, not_found),
        },
        "/admin/v1/users/{id}/recovery-link": {
            "parameters": [user_id],
            "post": op("issueRecoveryLink", "A recovery link to send the user", {"201": json_body(ref("AdminRecoveryLink"), "the link")},
                       {**not_found, "400": ["admin.invalidQuery", "request.malformedJSON", "request.invalidField"]}, body=ref("AdminRecoveryLinkRequest")),
        },
        "/admin/v1/audit": {"get": op("listAuditEvents", "Audit events, newest first, by user and time",
                                      {"200": json_body(ref("AdminAuditEventList"), "the events")},
                                      {**unauthorized, "400": ["admin.invalidQuery"]}, parameters=audit_query)},
        "/admin/v1/webhooks": {"get": op("listWebhooks", "The webhook endpoints and their deliveries",
                                         {"200": json_body(ref("AdminWebhookList"), "the endpoints")}, unauthorized)},
        "/admin/v1/metrics": {"get": op("adminMetrics", "Prometheus metrics", {
            "200": {"description": "Prometheus text exposition", "content": {"text/plain": {"schema": STRING}}}}, unauthorized)},
    }
    return {
        "openapi": "3.1.0",
        "info": {"title": "Latchkey admin API", "version": "1",
                 "description": "The admin API on its own listener (--admin-port). Generated by scripts/openapi.py; see docs/SERVER.md#admin-api."},
        "servers": [{"url": "/"}],
        "tags": [{"name": "admin"}],
        "paths": p,
        "components": {
            "schemas": schemas_all,
            "securitySchemes": {"adminKey": {"type": "http", "scheme": "bearer", "description": "An admin key's secret (--admin-keys-file)."}},
        },
    }


def main():
    for path, made in ((OUTPUT, document()), (ADMIN_OUTPUT, admin_document())):
        text = json.dumps(made, indent=2, sort_keys=False, ensure_ascii=False) + "\n"
        if "--check" in sys.argv[1:]:
            with open(path, encoding="utf-8") as existing:
                if existing.read() != text:
                    print(f"{path} is out of date: run python3 scripts/openapi.py", file=sys.stderr)
                    sys.exit(1)
            continue
        with open(path, "w", encoding="utf-8") as out:
            out.write(text)


if __name__ == "__main__":
    main()
