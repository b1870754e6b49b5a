@testable import WebAuthn

/// Registration and authentication credentials as JSON (the fast `JSONReader` path), and any JSON value.
enum CredentialJSONTarget {
    static func run(_ bytes: [UInt8]) {
        _ = try? RegistrationCredential.parse(bytes)
        _ = try? AuthenticationCredential.parse(bytes)
        var reader = JSONReader(bytes)
        if (try? reader.readValue()) != nil { _ = try? reader.finish() }
    }
}
