import TesseraCore

/// How a job ended.
///
/// The errors are boxed (`indirect`): inline, a `TesseraError` made every outcome 48 bytes where a
/// result takes 33, and a run keeps one per job (700,000 at 100,000 tiny masters) and the gather a
/// table of 400,000, at the build's peak (issue 54, item 14). Few jobs fail.
public enum JobOutcome: Sendable {
    /// It ran and returned a value.
    case succeeded(any Sendable)
    /// It ran and threw.
    indirect case failed(TesseraError)
    /// It never ran because a dependency did not succeed; the error names that dependency.
    indirect case skipped(TesseraError)
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
