import Synchronization
import TesseraCore

/// A flag that asks running work to stop at its next check: set by Ctrl-C or by a fail-fast stop.
///
/// Cancellation is cooperative: jobs call `JobContext.checkCancellation()` between units of work
/// (rows, frames, files), throw, and clean up their temporary files on the way out.
public final class CancellationSource: Sendable {
    private let flag = Atomic<Bool>(false)

    public init() {}

    /// Requests cancellation; idempotent and safe from any thread, including a signal handler's queue.
    public func cancel() {
        flag.store(true, ordering: .releasing)
    }

    public var isCancelled: Bool {
        flag.load(ordering: .acquiring)
    }

    /// Throws `TesseraError.Kind.cancelled` once cancellation has been requested.
    public func check() throws(TesseraError) {
        if isCancelled { throw TesseraError(.cancelled, reason: "cancelled") }
    }
}
