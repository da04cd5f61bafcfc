/// The one error type every stage throws: what kind of failure, where (file and origin), and why in plain words.
public struct TesseraError: Error, Sendable, Equatable, CustomStringConvertible {
    /// Broad classes of failure, so callers can react without parsing messages.
    public enum Kind: String, Sendable, Codable {
        /// The input file or value is malformed, truncated or unsupported.
        case invalidInput
        /// The input is well-formed but exceeds a configured limit (pixels, memory, frames).
        case limitExceeded
        /// A signature, key or signed statement does not check out against the pinned root of
        /// trust (docs/security.md): what a client refuses rather than load.
        case untrusted
        /// A pipeline or option is wrong.
        case configuration
        /// The file system refused a read or write.
        case io
        /// The run was cancelled before this work finished.
        case cancelled
        /// A dependency failed, so this work could not run.
        case dependencyFailed
        /// A broken invariant inside Tessera: a bug to report.
        case internalFailure
    }

    public var kind: Kind
    /// The file the failure concerns, when there is one.
    public var file: String?
    /// Where the failure comes from (`ProblemOrigin`: a job kind such as `decode`, a check before
    /// any job runs, or another command's step), when known.
    public var origin: ProblemOrigin?
    public var reason: String

    public init(_ kind: Kind, file: String? = nil, origin: ProblemOrigin? = nil, reason: String) {
        self.kind = kind
        self.file = file
        self.origin = origin
        self.reason = reason
    }

    /// The same error with the file and origin filled in where they were still missing.
    public func located(file: String? = nil, origin: ProblemOrigin? = nil) -> TesseraError {
        var copy = self
        if copy.file == nil { copy.file = file }
        if copy.origin == nil { copy.origin = origin }
        return copy
    }

    /// `file: origin: reason`, leaving out what is unknown; the one-line form the CLI prints.
    public var description: String {
        [file, origin?.rawValue, reason].compactMap { $0 }.joined(separator: ": ")
    }
}

extension TesseraError {
    /// Wraps any error as a `TesseraError`, keeping one that already is.
    public static func wrapping(_ error: any Error, file: String? = nil, origin: ProblemOrigin? = nil) -> TesseraError {
        if let error = error as? TesseraError { return error.located(file: file, origin: origin) }
        if error is CancellationError { return TesseraError(.cancelled, file: file, origin: origin, reason: "cancelled") }
        return TesseraError(.internalFailure, file: file, origin: origin, reason: String(describing: error))
    }
}
