// `Base64URL`, `Base64URLBytes` and `Hex` live in the small `ByteEncoding` module, which `AppleSignIn` uses without the
// rest of WebAuthn; they are re-exported so that `import WebAuthn` keeps providing them.
@_exported import ByteEncoding
