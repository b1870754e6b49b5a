import Crypto
import Foundation
import LatchkeyStore
import Synchronization
import WebAuthn

/// Keeps a pending ceremony in the ticket the client gets: the state sealed with AES-256-GCM under a key every
/// instance shares (``SharedSecretKey``), so beginning a ceremony writes nothing and finishing it needs no read.
///
/// A ticket is base64url of `version (1) ‖ hour (4) ‖ nonce (12) ‖ ciphertext ‖ tag (16)`; the plaintext is the
/// expiry (Unix milliseconds, 8 bytes big-endian) followed by the state's JSON (``CeremonyState``), and the ceremony
/// kind and the version are authenticated with it, so a registration ticket cannot finish a sign-in and a ticket
/// cannot be passed off as another version's. The client can neither read nor
/// change it. Tickets are sealed under a key of the hour they are issued in (HKDF-SHA256 of the shared key and the
/// hour, derived once an hour), so no key comes near the limit on random GCM nonces (2³² messages) however long the
/// shared key lives; a ticket naming an hour outside the last few is refused without deriving anything.
///
/// What stays single-use is the ticket's nonce: a finish spends it in the transaction that commits the outcome, and a
/// failed finish spends it on its own (``LatchkeyStore/LatchkeyStore/spendTicket(_:)``); the spent record is kept until
/// the ticket expires (and a while longer, for instances whose clocks differ: ``ExpiryPurgeService``), after which the
/// ticket is refused before the store is asked.
///
/// The spent record's ID is the expiry as 12 lowercase hex digits followed by the nonce's base64url (version 2), so IDs
/// sort as the tickets expire: a new record lands at the end of the store's index, and the purge deletes from its start,
/// touching few pages, where random IDs spread both over every page (docs/PERFORMANCE.md). Version 1
/// tickets (whose ID is the nonce's base64url alone) are still opened, with their own IDs, until they expire. An
/// instance that only knows version 1 refuses a version 2 ticket (`ceremony.notFound`: the client begins again), so a
/// ticket is never spent under two IDs.
struct CeremonyTickets: Sendable {
    /// The store's name of the sealing key.
    static let secretName = "ceremony-tickets-v1"
    /// The longest ticket accepted (characters); a sign-in's allow list is the longest part.
    static let maximumLength = 65_536

    /// The version sealed; ``open(_:kind:as:now:)`` also opens version 1.
    static let currentVersion: UInt8 = 2
    private static let hourLength = 4
    private static let nonceLength = 12
    private static let tagLength = 16
    private static let expiryLength = 8

    let key: SharedSecretKey
    /// How long a ticket can be finished after it is issued (at most an hour: ``ServerConfiguration``).
    let lifetime: Duration
    private let hourKeys = HourKeys()

    init(store: any ServerStateStore, lifetime: Duration) {
        key = SharedSecretKey(store: store, name: Self.secretName)
        self.lifetime = lifetime
    }

    /// A ticket for a `kind` ceremony with `state`, expiring ``lifetime`` after `now` (in `version`'s form: tests seal
    /// version 1 to check that it is still opened).
    func seal(_ kind: CeremonyKind, state: some CeremonyState, now: Date, version: UInt8 = currentVersion) async throws
        -> String
    {
        let hour = Self.hour(of: now)
        let key = try await hourKeys.key(for: hour, shared: key)
        let expiry = Self.milliseconds(now.addingTimeInterval(TimeInterval(lifetime.components.seconds)))
        var plaintext = [UInt8]()
        let payload = try state.payload()
        plaintext.reserveCapacity(Self.expiryLength + payload.count)
        withUnsafeBytes(of: expiry.bigEndian) { plaintext.append(contentsOf: $0) }
        plaintext.append(contentsOf: payload)
        // A nonce drawn in one system call (`AES.GCM.Nonce()` makes two).
        let nonce = try AES.GCM.Nonce(data: RelyingParty.generateChallenge(byteCount: Self.nonceLength))
        let box = try AES.GCM.seal(
            plaintext, using: key, nonce: nonce, authenticating: Self.associatedData(kind, version: version))
        var ticket = [version]
        ticket.reserveCapacity(1 + Self.hourLength + Self.nonceLength + plaintext.count + Self.tagLength)
        withUnsafeBytes(of: hour.bigEndian) { ticket.append(contentsOf: $0) }
        ticket.append(contentsOf: box.nonce)
        ticket.append(contentsOf: box.ciphertext)
        ticket.append(contentsOf: box.tag)
        return Base64URL.encode(ticket)
    }

    /// The state sealed in `ticket` and the record that spends it.
    ///
    /// Throws ``CeremonyError/notFound(_:detail:)`` for anything this server did not seal for a `kind` ceremony
    /// (malformed, changed, another kind's or another key's, or issued hours ago) and ``CeremonyError/expired(_:)``
    /// once the ticket has expired (within the hours after it was issued) or when its state is not one this version
    /// reads.
    func open<State: CeremonyState>(_ ticket: String, kind: CeremonyKind, as state: State.Type, now: Date) async throws
        -> (SpentTicket, State)
    {
        let header = 1 + Self.hourLength + Self.nonceLength
        guard ticket.utf8.count <= Self.maximumLength, let bytes = Base64URL.decode(ticket),
            bytes.count >= header + Self.expiryLength + Self.tagLength, (1...Self.currentVersion).contains(bytes[0])
        else { throw CeremonyError.notFound(kind) }
        let version = bytes[0]
        let hour = bytes[1..<(1 + Self.hourLength)].reduce(UInt32(0)) { $0 << 8 | UInt32($1) }
        // Issued within the ceremony lifetime (at most an hour) before now, give or take an hour of clock difference
        // between instances; a ticket of any other hour is not one to open (long expired, or not ours).
        guard (-1...2).contains(Int64(Self.hour(of: now)) - Int64(hour)) else { throw CeremonyError.notFound(kind) }
        let key = try await hourKeys.key(for: hour, shared: key)  // a store that cannot be reached is its own error
        let nonce = bytes[(1 + Self.hourLength)..<header]
        let plaintext: Data
        do {
            // The nonce, the ciphertext and the tag are contiguous in the ticket, in the order of GCM's combined form.
            let box = try AES.GCM.SealedBox(combined: bytes[(1 + Self.hourLength)...])
            plaintext = try AES.GCM.open(box, using: key, authenticating: Self.associatedData(kind, version: version))
        } catch {
            throw CeremonyError.notFound(kind)
        }
        let expiry = plaintext.prefix(Self.expiryLength).reduce(Int64(0)) { $0 << 8 | Int64($1) }
        let expiresAt = Date(timeIntervalSince1970: TimeInterval(expiry) / 1000)
        guard now < expiresAt else { throw CeremonyError.expired(kind) }
        let spent = SpentTicket(id: Self.spentID(version: version, expiry: expiry, nonce: nonce), expiresAt: expiresAt)
        do {
            return (spent, try State(payload: Data(plaintext.dropFirst(Self.expiryLength))))
        } catch {
            // Sealed by a version of the server that kept other state: it cannot be finished.
            throw CeremonyError.expired(kind)
        }
    }

    /// Hours since 1970.
    private static func hour(of date: Date) -> UInt32 {
        UInt32(clamping: Int64(date.timeIntervalSince1970.rounded(.down)) / 3600)
    }

    /// The keys of the last few hours, each derived once: HKDF-SHA256 of the shared key with the hour as its info.
    private final class HourKeys: Sendable {
        private let keys = Mutex<[UInt32: SymmetricKey]>([:])

        func key(for hour: UInt32, shared: SharedSecretKey) async throws -> SymmetricKey {
            if let key = keys.withLock({ $0[hour] }) { return key }
            var info = Array("latchkey ceremony tickets v1 hour ".utf8)
            withUnsafeBytes(of: hour.bigEndian) { info.append(contentsOf: $0) }
            let key = HKDF<SHA256>.deriveKey(
                inputKeyMaterial: try await shared.value(), info: info, outputByteCount: 32)
            keys.withLock { keys in
                keys = keys.filter { $0.key + 4 >= hour }  // an hour's tickets are opened for at most about two more
                keys[hour] = key
            }
            return key
        }
    }

    /// The spent record's ID: version 1, the nonce's base64url; version 2, the expiry in Unix milliseconds as 12
    /// lowercase hex digits (enough until the year 10889), then the nonce's base64url, so that IDs sort by expiry.
    static func spentID(version: UInt8, expiry: Int64, nonce: some Collection<UInt8>) -> String {
        let encodedNonce = Base64URL.encode(nonce)
        guard version >= 2 else { return encodedNonce }
        // The low six bytes of the big-endian expiry: twelve digits.
        return withUnsafeBytes(of: UInt64(clamping: expiry).bigEndian) { Hex.encode($0.dropFirst(2)) } + encodedNonce
    }

    /// What each ticket authenticates besides its plaintext: its kind and, from version 2, its version.
    private static func associatedData(_ kind: CeremonyKind, version: UInt8) -> Data {
        switch (kind, version) {
        case (.registration, 1): registrationDataV1
        case (.authentication, 1): authenticationDataV1
        case (.registration, _): registrationData
        case (.authentication, _): authenticationData
        }
    }

    private static let registrationDataV1 = Data("latchkey ceremony ticket v1 registration".utf8)
    private static let authenticationDataV1 = Data("latchkey ceremony ticket v1 authentication".utf8)
    private static let registrationData = Data("latchkey ceremony ticket v2 registration".utf8)
    private static let authenticationData = Data("latchkey ceremony ticket v2 authentication".utf8)

    private static func milliseconds(_ date: Date) -> Int64 {
        Int64((date.timeIntervalSince1970 * 1000).rounded(.up))
    }
}
