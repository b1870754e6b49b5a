// The server side's libFuzzer targets (Sign in with Apple JWS, the store URL, the configuration file, the HTTP/1
// request path, SMTP replies and URLs), one binary:
// `LATCHKEY_FUZZ_TARGET` names the target (scripts/fuzz.sh sets it). Built only with LATCHKEY_FUZZ set.
import FuzzSupport

FuzzRunner.run(targets: [
    "apple-jws": AppleJWSTarget.run,
    "store-url": StoreURLTarget.run,
    "configuration": ConfigurationTarget.run,
    "http1-request": HTTP1RequestTarget.run,
    "smtp": SMTPTarget.run,
])
