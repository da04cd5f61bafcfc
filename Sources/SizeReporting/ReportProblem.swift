/// A warning or failure of the build, as the HTML report lists it.
public struct ReportProblem: Sendable, Equatable {
    public var isError: Bool
    public var file: String
    public var stage: String
    public var reason: String

    public init(isError: Bool, file: String, stage: String, reason: String) {
        self.isError = isError
        self.file = file
        self.stage = stage
        self.reason = reason
    }
}
