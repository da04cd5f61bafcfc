import SizeReporting
import TesseraCore

/// A failure or warning the build report lists: which file, which stage, what went wrong.
public struct BuildProblem: Sendable, Codable, Hashable, Comparable {
    public enum Severity: String, Sendable, Codable {
        case error
        case warning
    }

    public var severity: Severity
    public var file: String
    public var stage: ProblemOrigin
    public var reason: String

    public init(severity: Severity, file: String, stage: ProblemOrigin, reason: String) {
        self.severity = severity
        self.file = file
        self.stage = stage
        self.reason = reason
    }

    /// `file: stage: reason`, the line the CLI prints.
    public var message: String { "\(file): \(stage): \(reason)" }

    public static func < (lhs: BuildProblem, rhs: BuildProblem) -> Bool {
        (lhs.file, lhs.stage, lhs.reason) < (rhs.file, rhs.stage, rhs.reason)
    }
}

extension BuildProblem {
    /// The problem as the size report's page lists it.
    public var reportProblem: ReportProblem {
        ReportProblem(isError: severity == .error, file: file, stage: stage.rawValue, reason: reason)
    }
}
