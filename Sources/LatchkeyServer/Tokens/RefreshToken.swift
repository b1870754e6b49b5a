import AppleSignIn
import Foundation
import WebAuthn

/// A refresh token: what it renews, sealed with the secrets key, so the server stores nothing for it.
///
/// It carries the hash of the session it belongs to, its generation, and how and when the user signed in (for the
/// access tokens it renews). The session keeps the generation that is current
/// (``LatchkeyStore/TokenStore/spendRefreshToken(session:generation:now:)``): a sign-in writes nothing for its refresh
/// token, and a database copied elsewhere holds none. Sealed with AES-256-GCM (``SecretBox``) under its own context, so
/// no other sealed value of the server stands in for one.
///
/// Plaintext: session token hash (32) ‖ generation (UInt32, big-endian) ‖ sign-in time (Int64 seconds, big-endian) ‖
/// the `amr` values, separated by spaces.
struct RefreshToken: Sendable, Hashable {
    /// The session it renews (``LatchkeyStore/StoredSession/tokenHash``).
    var sessionTokenHash: Data
    /// 0 for the token a sign-in answers, one more for each rotation.
    var generation: UInt32
    /// How the user signed in (`amr`).
    var authenticationMethods: [String]
    /// When the user signed in (`auth_time`), in whole seconds.
    var authenticatedAt: Date

    init(sessionTokenHash: Data, generation: UInt32, authenticationMethods: [String], authenticatedAt: Date) {
        self.sessionTokenHash = sessionTokenHash
        self.generation = generation
        self.authenticationMethods = authenticationMethods
        self.authenticatedAt = Date(timeIntervalSince1970: authenticatedAt.timeIntervalSince1970.rounded(.down))
    }

    private static let context = Array("latchkey refresh token".utf8)

    /// The token's text: base64url of the sealed plaintext.
    func sealed(with secrets: SecretBox) throws -> String {
        var plaintext = [UInt8](sessionTokenHash)
        plaintext.reserveCapacity(32 + 4 + 8 + 16)
        withUnsafeBytes(of: generation.bigEndian) { plaintext.append(contentsOf: $0) }
        withUnsafeBytes(of: Int64(authenticatedAt.timeIntervalSince1970).bigEndian) { plaintext.append(contentsOf: $0) }
        plaintext.append(contentsOf: authenticationMethods.joined(separator: " ").utf8)
        return Base64URL.encode(try secrets.seal(plaintext, context: Self.context))
    }

    /// The token sealed in `text`; nil for anything this server's key did not seal as a refresh token.
    init?(sealed text: String, secrets: SecretBox) {
        guard text.utf8.count <= 256, let bytes = Base64URL.decode(text),
            let plaintext = try? secrets.open(bytes, context: Self.context), plaintext.count >= 44
        else { return nil }
        func integer<T: FixedWidthInteger>(_ range: Range<Int>, as _: T.Type) -> T {
            plaintext[range].reduce(T(0)) { $0 << 8 | T($1) }
        }
        self.init(
            sessionTokenHash: Data(plaintext[0..<32]), generation: integer(32..<36, as: UInt32.self),
            authenticationMethods: String(decoding: plaintext[44...], as: UTF8.self).split(separator: " ")
                .map(String.init),
            authenticatedAt: Date(timeIntervalSince1970: TimeInterval(integer(36..<44, as: Int64.self))))
    }
}
