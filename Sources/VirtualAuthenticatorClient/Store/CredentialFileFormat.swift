import Crypto
import Foundation
import VirtualAuthenticator
import WebAuthn

/// The on-disk form of ``EncryptedFileCredentialStore``: a small JSON header and the credentials, sealed
/// with AES-256-GCM.
///
/// ```json
/// {"format":"latchkey-credentials","version":1,
///  "keyDerivation":{"method":"scrypt","salt":"…","n":32768,"r":8,"p":1},
///  "keyCheck":"…","sealed":"…"}
/// ```
///
/// `keyCheck` (HMAC-SHA256 of a fixed label under the key, 16 bytes) tells a wrong passphrase apart from a
/// damaged file; `sealed` is nonce ‖ ciphertext ‖ tag of the JSON array of ``CredentialSource``s, with the
/// format name, version and key check as associated data.
struct CredentialFileFormat: Codable, Sendable {
    static let formatName = "latchkey-credentials"
    static let currentVersion = 1

    /// How the key is obtained.
    struct KeyDerivation: Codable, Sendable, Hashable {
        /// `scrypt` or `keyfile`.
        var method: String
        var salt: Base64URLBytes?
        var n: Int?
        var r: Int?
        var p: Int?

        static let keyFile = KeyDerivation(method: "keyfile")

        static func scrypt(salt: [UInt8], parameters: Scrypt.Parameters) -> KeyDerivation {
            KeyDerivation(
                method: "scrypt", salt: Base64URLBytes(salt), n: parameters.cost, r: parameters.blockSize,
                p: parameters.parallelization
            )
        }
    }

    var format: String
    var version: Int
    var keyDerivation: KeyDerivation
    var keyCheck: Base64URLBytes
    var sealed: Base64URLBytes

    /// Seals `credentials` under `key`.
    static func seal(
        _ credentials: [CredentialSource], key: SymmetricKey, keyDerivation: KeyDerivation, path: String
    ) throws(CredentialFileError) -> [UInt8] {
        let check = keyCheck(for: key)
        do {
            let plaintext = try JSONEncoder().encode(credentials)
            let box = try AES.GCM.seal(plaintext, using: key, authenticating: associatedData(keyCheck: check))
            guard let combined = box.combined else {
                throw CredentialFileError.io(path: path, reason: "AES-GCM gave no output")
            }
            let file = CredentialFileFormat(
                format: formatName, version: currentVersion, keyDerivation: keyDerivation,
                keyCheck: Base64URLBytes(check), sealed: Base64URLBytes(Array(combined))
            )
            let encoder = JSONEncoder()
            encoder.outputFormatting = [.sortedKeys]
            return Array(try encoder.encode(file))
        } catch {
            throw .io(path: path, reason: "cannot encrypt the credentials: \(error)")
        }
    }

    /// Reads the header of a credential file.
    static func header(of bytes: [UInt8], path: String) throws(CredentialFileError) -> CredentialFileFormat {
        guard let file = try? JSONDecoder().decode(CredentialFileFormat.self, from: Data(bytes)),
            file.format == formatName
        else {
            throw .corrupted(path: path, reason: "not a Latchkey credential file")
        }
        guard file.version <= currentVersion else { throw .unsupportedVersion(path: path, version: file.version) }
        return file
    }

    /// Opens the sealed credentials with `key`.
    func open(key: SymmetricKey, path: String) throws(CredentialFileError) -> [CredentialSource] {
        guard Self.keyCheck(for: key) == keyCheck.bytes else { throw .wrongKey(path: path) }
        let plaintext: Data
        do {
            let box = try AES.GCM.SealedBox(combined: sealed.bytes)
            plaintext = try AES.GCM.open(box, using: key, authenticating: Self.associatedData(keyCheck: keyCheck.bytes))
        } catch {
            throw .corrupted(path: path, reason: "the encrypted credentials fail authentication (altered or cut short)")
        }
        do {
            return try JSONDecoder().decode([CredentialSource].self, from: plaintext)
        } catch {
            throw .corrupted(path: path, reason: "the decrypted credentials are not readable")
        }
    }

    private static func keyCheck(for key: SymmetricKey) -> [UInt8] {
        Array(
            HMAC<SHA256>.authenticationCode(for: Array("latchkey credential store key check".utf8), using: key).prefix(
                16))
    }

    private static func associatedData(keyCheck: [UInt8]) -> [UInt8] {
        Array("\(formatName)/\(currentVersion)".utf8) + keyCheck
    }
}
