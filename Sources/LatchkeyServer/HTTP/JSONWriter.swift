import Foundation
import LatchkeyAPI
import WebAuthn

/// A JSON body written straight to bytes, for the answers of every sign-in (its options and its session), which
/// `JSONEncoder` made at about 6 % of the server's CPU under the load test.
///
/// A ``JSONWritable`` value writes the same bytes `APIJSON.makeEncoder()` makes of it (sorted keys, slashes
/// unescaped, ISO 8601 dates, nil members left out): keys are written in sorted order by hand, and a test compares
/// the two on many values. Parts that are rare on the hot path (extensions, a passkey upgrade) are encoded by that
/// encoder and spliced in. `latchkey loadtest` writes its sign-in requests with it too (`WireSignIn`).
package struct JSONWriter {
    package private(set) var bytes: [UInt8] = []
    /// Whether the next member or element needs a comma before it.
    private var needsComma = false

    private static let encoder = APIJSON.makeEncoder()
    private static let hexDigits = Array("0123456789abcdef".utf8)

    package init() {
        bytes.reserveCapacity(512)
    }

    /// `{`, the members `body` writes, `}`.
    package mutating func object(_ body: (inout JSONWriter) throws -> Void) rethrows {
        try container(UInt8(ascii: "{"), UInt8(ascii: "}"), body)
    }

    /// `[`, the elements `body` writes, `]`.
    mutating func array(_ body: (inout JSONWriter) throws -> Void) rethrows {
        try container(UInt8(ascii: "["), UInt8(ascii: "]"), body)
    }

    private mutating func container(_ open: UInt8, _ close: UInt8, _ body: (inout JSONWriter) throws -> Void) rethrows {
        separate()
        bytes.append(open)
        needsComma = false
        try body(&self)
        bytes.append(close)
        needsComma = true
    }

    /// A member's key; its value is written next.
    package mutating func key(_ key: StaticString) {
        separate()
        bytes.append(UInt8(ascii: "\""))
        key.withUTF8Buffer { bytes.append(contentsOf: $0) }
        bytes.append(contentsOf: [UInt8(ascii: "\""), UInt8(ascii: ":")])
        needsComma = false
    }

    /// A member's key that is not known until run time (escaped); its value is written next.
    mutating func key(_ name: String) {
        string(name)
        bytes.append(UInt8(ascii: ":"))
        needsComma = false
    }

    /// A string value, escaped as `JSONEncoder` escapes it.
    mutating func string(_ text: String) {
        separate()
        bytes.append(UInt8(ascii: "\""))
        var text = text
        text.withUTF8 { appendEscaped($0) }
        bytes.append(UInt8(ascii: "\""))
        needsComma = true
    }

    /// Appends UTF-8 text escaped for a JSON string: the runs that need no escape (all of a base64url value) in one
    /// append each.
    private mutating func appendEscaped(_ utf8: UnsafeBufferPointer<UInt8>) {
        var runStart = 0
        for index in utf8.indices {
            let byte = utf8[index]
            guard byte < 0x20 || byte == UInt8(ascii: "\"") || byte == UInt8(ascii: "\\") else { continue }
            bytes.append(contentsOf: UnsafeBufferPointer(rebasing: utf8[runStart..<index]))
            switch byte {
            case UInt8(ascii: "\""): bytes.append(contentsOf: [UInt8(ascii: "\\"), UInt8(ascii: "\"")])
            case UInt8(ascii: "\\"): bytes.append(contentsOf: [UInt8(ascii: "\\"), UInt8(ascii: "\\")])
            case 0x0A: bytes.append(contentsOf: [UInt8(ascii: "\\"), UInt8(ascii: "n")])
            case 0x0D: bytes.append(contentsOf: [UInt8(ascii: "\\"), UInt8(ascii: "r")])
            case 0x09: bytes.append(contentsOf: [UInt8(ascii: "\\"), UInt8(ascii: "t")])
            case 0x08: bytes.append(contentsOf: [UInt8(ascii: "\\"), UInt8(ascii: "b")])
            case 0x0C: bytes.append(contentsOf: [UInt8(ascii: "\\"), UInt8(ascii: "f")])
            default:
                bytes.append(contentsOf: [
                    UInt8(ascii: "\\"), UInt8(ascii: "u"), UInt8(ascii: "0"), UInt8(ascii: "0"),
                    Self.hexDigits[Int(byte >> 4)], Self.hexDigits[Int(byte & 0xF)],
                ])
            }
            runStart = index + 1
        }
        bytes.append(contentsOf: UnsafeBufferPointer(rebasing: utf8[runStart...]))
    }

    /// An integer value.
    mutating func int(_ value: Int) {
        separate()
        bytes.append(contentsOf: String(value).utf8)
        needsComma = true
    }

    private static let dateStyle = Date.ISO8601FormatStyle()

    /// A date, as `APIJSON`'s encoder writes it (ISO 8601, whole seconds, UTC).
    mutating func date(_ date: Date) {
        string(Self.dateStyle.format(date))
    }

    /// Any value, through `APIJSON`'s encoder (for the parts that are not on the hot path).
    package mutating func encoded(_ value: some Encodable) throws {
        separate()
        bytes.append(contentsOf: try Self.encoder.encode(value))
        needsComma = true
    }

    /// `"key":"text"`, or nothing when `text` is nil.
    package mutating func member(_ name: StaticString, _ text: String?) {
        guard let text else { return }
        key(name)
        string(text)
    }

    private mutating func separate() {
        if needsComma { bytes.append(UInt8(ascii: ",")) }
    }
}

/// A value that writes its own JSON (``JSONWriter``), byte for byte what `APIJSON.makeEncoder()` makes of it.
protocol JSONWritable: Encodable {
    func write(to json: inout JSONWriter) throws
}

extension JSONWritable {
    /// The JSON text.
    func jsonBytes() throws -> [UInt8] {
        var json = JSONWriter()
        try write(to: &json)
        return json.bytes
    }
}

extension SessionResponse: JSONWritable {
    func write(to json: inout JSONWriter) throws {
        try json.object { json in
            if let accessToken {
                json.key("accessToken")
                json.object { json in
                    json.member("accessToken", accessToken.accessToken)
                    json.key("expiresAt")
                    json.date(accessToken.expiresAt)
                    json.member("refreshToken", accessToken.refreshToken)
                    json.member("tokenType", accessToken.tokenType)
                }
            }
            if let passkeyUpgrade {
                json.key("passkeyUpgrade")
                try json.encoded(passkeyUpgrade)
            }
            json.key("session")
            json.object { json in
                json.key("expiresAt")
                json.date(session.expiresAt)
                json.member("token", session.token)
            }
            if let signals {
                json.key("signals")
                json.object { json in
                    json.key("allAcceptedCredentialIds")
                    json.array { json in
                        for id in signals.allAcceptedCredentialIds { json.string(id) }
                    }
                    json.member("displayName", signals.displayName)
                    json.member("name", signals.name)
                    json.member("rpId", signals.rpId)
                    json.member("userId", signals.userId)
                }
            }
            json.key("user")
            try json.object { json in
                json.member("displayName", user.displayName)
                json.member("id", user.id)
                json.member("name", user.name)
                if let signInMethods = user.signInMethods {
                    json.key("signInMethods")
                    try json.encoded(signInMethods)
                }
            }
        }
    }
}

extension TicketedOptions: JSONWritable where Options == PublicKeyCredentialRequestOptions {
    func write(to json: inout JSONWriter) throws {
        try json.object { json in
            json.key("options")
            try options.write(to: &json)
            json.member("ticket", ticket)
        }
    }
}

extension ServerRequestOptionsResponse: JSONWritable {
    func write(to json: inout JSONWriter) throws {
        try json.object { json in
            json.key("allowCredentials")
            json.array { json in
                for descriptor in allowCredentials { descriptor.write(to: &json) }
            }
            json.member("challenge", Base64URL.encode(challenge.bytes))
            json.member("errorMessage", errorMessage)
            if let extensions {
                json.key("extensions")
                try json.encoded(extensions)
            }
            json.member("rpId", rpId)
            json.member("status", status.rawValue)
            if let timeout {
                json.key("timeout")
                json.int(timeout)
            }
            json.member("userVerification", userVerification.rawValue)
        }
    }
}

extension ServerResponse: JSONWritable {
    func write(to json: inout JSONWriter) {
        json.object { json in
            json.member("errorCode", errorCode)
            json.member("errorMessage", errorMessage)
            json.member("status", status.rawValue)
        }
    }
}

extension PublicKeyCredentialRequestOptions: JSONWritable {
    func write(to json: inout JSONWriter) throws {
        try json.object { json in
            if let allowCredentials {
                json.key("allowCredentials")
                json.array { json in
                    for descriptor in allowCredentials { descriptor.write(to: &json) }
                }
            }
            json.member("challenge", Base64URL.encode(challenge.bytes))
            if let extensions {
                json.key("extensions")
                try json.encoded(extensions)
            }
            if let hints {
                json.key("hints")
                json.array { json in
                    for hint in hints { json.string(hint.rawValue) }
                }
            }
            json.member("rpId", rpId)
            if let timeout {
                json.key("timeout")
                json.int(timeout)
            }
            json.member("userVerification", userVerification?.rawValue)
        }
    }
}

extension PublicKeyCredentialDescriptor {
    func write(to json: inout JSONWriter) {
        json.object { json in
            json.member("id", Base64URL.encode(id.bytes))
            if let transports {
                json.key("transports")
                json.array { json in
                    for transport in transports { json.string(transport.rawValue) }
                }
            }
            json.member("type", type.rawValue)
        }
    }
}

extension PendingAuthentication: JSONWritable {
    func write(to json: inout JSONWriter) {
        json.object { json in
            json.key("allowedCredentialIDs")
            json.array { json in
                for id in allowedCredentialIDs { json.string(Base64URL.encode(id.bytes)) }
            }
            json.member("challenge", Base64URL.encode(challenge.bytes))
            json.member("mediation", mediation?.rawValue)
            json.member("userHandle", userHandle.map { Base64URL.encode($0.bytes) })
            json.member("userVerification", userVerification.rawValue)
        }
    }

    /// The state from its stored JSON, read with WebAuthn's one-pass reader, or nil when the JSON is not of the form
    /// the Codable conformance writes (the caller then hands it to `JSONDecoder`, which says why).
    init?(storedJSON bytes: [UInt8]) {
        guard let members = try? JSONMembers(bytes),
            let challenge = members.string("challenge").flatMap(Base64URL.decode),
            let allowed = members.strings("allowedCredentialIDs"),
            let userVerification = members.string("userVerification")
        else { return nil }
        var allowedIDs: [[UInt8]] = []
        allowedIDs.reserveCapacity(allowed.count)
        for text in allowed {
            guard let id = Base64URL.decode(text) else { return nil }
            allowedIDs.append(id)
        }
        // Optional members: absent or null, or a string; anything else is left to the decoder.
        guard let userHandleText = members.optionalString("userHandle"),
            let mediation = members.optionalString("mediation")
        else { return nil }
        var userHandle: [UInt8]?
        if let userHandleText {
            guard let bytes = Base64URL.decode(userHandleText) else { return nil }
            userHandle = bytes
        }
        self.init(
            challenge: challenge, allowedCredentialIDs: allowedIDs,
            userVerification: UserVerificationRequirement(rawValue: userVerification), userHandle: userHandle,
            mediation: mediation.map(CredentialMediationRequirement.init(rawValue:))
        )
    }
}
