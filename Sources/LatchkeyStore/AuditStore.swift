import Foundation
import Synchronization

/// The audit-log part of a store. Every ``LatchkeyStore`` is one.
///
/// Events that record a change are written by the change itself: a service runs the store call inside
/// ``AuditTrail/recording(_:in:_:)`` and the store writes the events in that call's write transaction.
/// ``recordAuditEvents(_:)`` is for events with no change of their own (a failed sign-in).
public protocol AuditStore: Sendable {
    /// Writes `events` on their own, in one transaction.
    func recordAuditEvents(_ events: [AuditEvent]) async throws(StoreError)

    /// The events `query` selects, newest first.
    func auditEvents(_ query: AuditQuery) async throws(StoreError) -> [StoredAuditEvent]

    /// Deletes the events that occurred before `cutoff` (and their webhook deliveries); returns how many.
    @discardableResult
    func purgeAuditEvents(occurredBefore cutoff: Date) async throws(StoreError) -> Int
}

/// Audit events that go into the same transaction as the change they record.
///
/// ``recording(_:in:_:)`` runs one store call with the events pending; the store's first write transaction in that
/// call claims them (``claim()``) and writes them with its own statements, so both are committed or neither is. A
/// call that fails writes neither. A call that returns without having written (there was nothing to change) leaves
/// the events unclaimed, and they are written on their own.
public enum AuditTrail {
    @TaskLocal static var pending: Pending?

    /// The events waiting for the current task's next write transaction.
    final class Pending: Sendable {
        private let events: Mutex<[AuditEvent]>

        init(_ events: [AuditEvent]) { self.events = Mutex(events) }

        func take() -> [AuditEvent] {
            events.withLock { events in
                defer { events = [] }
                return events
            }
        }
    }

    /// Runs `change`, one store call that writes, with `events` written in its transaction.
    @discardableResult
    nonisolated(nonsending) public static func recording<T: Sendable>(
        _ events: [AuditEvent], in store: any AuditStore,
        _ change: nonisolated(nonsending) () async throws(StoreError) -> T
    ) async throws(StoreError) -> T {
        guard !events.isEmpty else { return try await change() }
        for event in events { try event.validate() }
        let pending = Pending(events)
        let value: T
        do {
            value = try await $pending.withValue(pending) { try await change() }
        } catch let error as StoreError {
            throw error
        } catch {
            throw StoreError(.databaseError, "\(error)")
        }
        let unclaimed = pending.take()
        if !unclaimed.isEmpty { try await store.recordAuditEvents(unclaimed) }
        return value
    }

    /// The events the current write transaction must write with its own statements (store implementations call this
    /// once as a write begins); empty outside ``recording(_:in:_:)`` or once claimed.
    package static func claim() -> [AuditEvent] {
        pending?.take() ?? []
    }
}
