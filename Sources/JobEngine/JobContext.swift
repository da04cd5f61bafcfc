import Synchronization
import TesseraCore

/// What a running job sees: its dependencies' results and the cancellation flag.
public struct JobContext: Sendable {
    public let key: JobKey
    private let inputs: Inputs
    private let cancellation: CancellationSource

    /// The dependencies' outcomes, dropped when the job's body returns: whoever still holds the
    /// context (a finishing thread, a task being torn down) then holds no input, so an input is
    /// freed as soon as the scheduler lets go of it.
    private final class Inputs: Sendable {
        let outcomes: Mutex<[JobKey: JobOutcome]>
        init(_ outcomes: [JobKey: JobOutcome]) { self.outcomes = Mutex(outcomes) }
    }

    init(key: JobKey, outcomes: [JobKey: JobOutcome], cancellation: CancellationSource) {
        self.key = key
        self.inputs = Inputs(outcomes)
        self.cancellation = cancellation
    }

    /// Called by the scheduler when the job's body has returned.
    func releaseInputs() {
        inputs.outcomes.withLock { $0 = [:] }
    }

    /// The result of dependency `input`, which must have succeeded.
    public func input<T>(_ input: JobRef<T>) throws(TesseraError) -> T {
        guard let outcome = inputs.outcomes.withLock({ $0[input.key] }) else {
            throw TesseraError(.internalFailure, reason: "job \(key) read \(input.key), which is not one of its dependencies")
        }
        guard let value = outcome.value(as: T.self) else {
            throw TesseraError(.dependencyFailed, reason: "input \(input.key) did not succeed")
        }
        return value
    }

    /// The result of dependency `input`, or nil when it did not succeed: how an aggregating job
    /// (one that tolerates failed dependencies) gathers what was made.
    public func result<T>(of input: JobRef<T>) -> T? {
        inputs.outcomes.withLock { $0[input.key] }?.value(as: T.self)
    }

    /// Whether dependency `key` succeeded, whatever it returned.
    public func succeeded(_ key: JobKey) -> Bool {
        inputs.outcomes.withLock { $0[key] }?.isSuccess ?? false
    }

    public var isCancelled: Bool { cancellation.isCancelled }

    /// Throws once the run is being cancelled; call it between units of work.
    public func checkCancellation() throws(TesseraError) {
        try cancellation.check()
    }
}
