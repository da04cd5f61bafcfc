import TesseraCore

/// How a job ended.
public enum JobOutcome: Sendable {
    /// It ran and returned a value.
    case succeeded(any Sendable)
    /// It ran and threw.
    case failed(TesseraError)
    /// It never ran because a dependency did not succeed; the error names that dependency.
    case skipped(TesseraError)
    /// It never ran, or stopped early, because the run was cancelled.
    case cancelled

    public var isSuccess: Bool {
        if case .succeeded = self { return true }
        return false
    }

    /// The value of a successful job, as `T`: read through a `JobRef<T>`, whose job returns a `T`.
    func value<T>(as type: T.Type = T.self) -> T? {
        if case .succeeded(let value) = self { return value as? T }
        return nil
    }
}
