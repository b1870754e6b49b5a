import Foundation

/// Keeps a verified MDS3 BLOB current: loads it from a file (or the caller's loader) on first use, serves lookups from the
/// parsed copy, and loads a new one once the held one is past its `nextUpdate`. Concurrent callers share one load.
///
/// If a refresh fails, the last good BLOB keeps serving (a compromise report in it still counts) and the
/// next attempt waits ``retryInterval``; ``lastError`` says what went wrong.
///
/// ```swift
/// // The WebAuthn module does no networking: a server passes a loader built on its own HTTP client.
/// let service = MetadataService(source: .custom(name: "https://mds3.fidoalliance.org/") {
///     try await httpClient.get("https://mds3.fidoalliance.org/")
/// })
/// rp.attestationTrust.metadata = service
/// rp.attestationTrust.policy = .trusted
/// ```
public actor MetadataService: AuthenticatorMetadataSource {
    /// Where the BLOB comes from.
    public enum Source: Sendable, CustomStringConvertible {
        /// A file holding the JWS text.
        case file(String)
        /// The caller's own loader (a server's HTTP client, a cache); `name` appears in messages.
        case custom(name: String, load: @Sendable () async throws -> [UInt8])

        /// A readable form.
        public var description: String {
            switch self {
            case .file(let path): path
            case .custom(let name, _): name
            }
        }
    }

    /// Where the BLOB is loaded from.
    public let source: Source
    /// How each loaded BLOB is verified.
    public let verifier: MetadataBLOBVerifier
    /// How long to wait after a failed refresh before trying again.
    public let retryInterval: TimeInterval
    private let now: @Sendable () -> Date
    private var current: MetadataBLOB?
    private var loading: Task<Result<MetadataBLOB, WebAuthnError>, Never>?
    private var nextAttempt: Date?
    /// The error of the last failed load, cleared by a successful one.
    public private(set) var lastError: WebAuthnError?

    /// - Parameters:
    ///   - source: the file or loader to load from.
    ///   - verifier: the root (and CRLs) the BLOB must verify against; the production FIDO root by default.
    ///   - retryInterval: the wait after a failed refresh; one hour by default.
    ///   - now: the clock (tests pass a fixed one).
    public init(
        source: Source, verifier: MetadataBLOBVerifier = MetadataBLOBVerifier(), retryInterval: TimeInterval = 3600,
        now: @escaping @Sendable () -> Date = { Date() }
    ) {
        self.source = source
        self.verifier = verifier
        self.retryInterval = retryInterval
        self.now = now
    }

    /// The current BLOB, loading it when none is held or the held one is past `nextUpdate`.
    /// - Throws: the load's ``WebAuthnError`` when no BLOB has ever loaded.
    public func blob() async throws(WebAuthnError) -> MetadataBLOB {
        let time = now()
        if let current, time <= current.nextUpdate { return current }
        if let current, let nextAttempt, time < nextAttempt { return current }
        switch await load(at: time) {
        case .success(let blob): return blob
        case .failure(let error):
            if let current { return current }
            throw error
        }
    }

    /// Loads and verifies the BLOB now, whatever the held one's `nextUpdate`.
    @discardableResult
    public func refresh() async throws(WebAuthnError) -> MetadataBLOB {
        try await load(at: now()).get()
    }

    /// The entry for an AAGUID, if the BLOB has one.
    public func entry(for aaguid: AAGUID) async -> MetadataEntry? {
        (try? await blob())?.entry(for: aaguid)
    }

    /// The entry for a U2F attestation certificate key identifier, if the BLOB has one.
    public func entry(forKeyIdentifier identifier: [UInt8]) async -> MetadataEntry? {
        (try? await blob())?.entry(forKeyIdentifier: identifier)
    }

    private func load(at time: Date) async -> Result<MetadataBLOB, WebAuthnError> {
        if let loading { return await loading.value }
        let (source, verifier, previous) = (source, verifier, current?.number)
        let task = Task { () -> Result<MetadataBLOB, WebAuthnError> in
            do throws(WebAuthnError) {
                let bytes = try await Self.read(source)
                return .success(try await verifier.verify(bytes, at: time, previousNumber: previous))
            } catch {
                return .failure(error)
            }
        }
        loading = task
        let result = await task.value
        loading = nil
        switch result {
        case .success(let blob):
            current = blob
            lastError = nil
            nextAttempt = nil
        case .failure(let error):
            lastError = error
            nextAttempt = time.addingTimeInterval(retryInterval)
        }
        return result
    }

    private static func read(_ source: Source) async throws(WebAuthnError) -> [UInt8] {
        do {
            switch source {
            case .file(let path):
                return Array(try Data(contentsOf: URL(fileURLWithPath: path)))
            case .custom(_, let load):
                return try await load()
            }
        } catch let error as WebAuthnError {
            throw error
        } catch {
            throw WebAuthnError(.metadataUnavailable, "cannot read the metadata BLOB from \(source): \(error)")
        }
    }
}
