import Foundation

/// A build's problems split against a previous build's: those on files a change added or
/// edited (or whose problem is new), which CI annotates beside the change, and those the previous
/// build already had on the same file with the same content, which are only counted. GitHub shows
/// ten warning annotations a step: a new problem must not hide behind old ones.
public struct ProblemNovelty: Sendable, Equatable {
    /// Problems to annotate.
    public var new: [BuildProblem]
    /// Problems the previous build had on unchanged files.
    public var unchanged: [BuildProblem]

    /// `previous`: the previous build's `problemFiles`; nil when unknown (every problem is new).
    public init(problems: [BuildProblem], files: [String: String], input: String, previous: [String: String]?) {
        guard let previous else {
            new = problems
            unchanged = []
            return
        }
        let root = URL(fileURLWithPath: input).standardizedFileURL.path
        var new: [BuildProblem] = [], unchanged: [BuildProblem] = []
        for problem in problems {
            let key = ProblemFiles.relative(problem.location.path, to: root)
            if let now = files[key], let was = previous[key], now == was { unchanged.append(problem) } else { new.append(problem) }
        }
        self.new = new
        self.unchanged = unchanged
    }
}
