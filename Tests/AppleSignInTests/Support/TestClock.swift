import Foundation
import Synchronization

/// A clock tests move by hand.
final class TestClock: Sendable {
    private let time: Mutex<Date>

    init(_ start: Date = Date(timeIntervalSince1970: 1_790_000_000)) { time = Mutex(start) }

    var now: Date { time.withLock { $0 } }

    func advance(_ seconds: TimeInterval) { time.withLock { $0 += seconds } }

    /// The clock as the closure the library takes.
    var closure: @Sendable () -> Date { { [self] in self.now } }
}
