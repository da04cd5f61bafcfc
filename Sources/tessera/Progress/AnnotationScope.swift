import Pipeline

/// Which of a build's problems CI annotates: all of them, or, against a previous build
/// (`--against`), those on files it added or changed; the previous build's own problems on
/// unchanged files are one notice with a count.
enum AnnotationScope {
    case all
    /// `previous`: the previous build's problem files (nil: unknown, with `unknown` saying why).
    case changedSince(input: String, files: [String: String], previous: [String: String]?, unknown: String?)

    /// The scope of a build of `input` against `location` (nil: all).
    static func against(_ location: String?, input: String, files: [String: String]?) -> AnnotationScope {
        guard let location else { return .all }
        let previous = PreviousProblems.load(location)
        return .changedSince(input: input, files: files ?? [:], previous: previous.files, unknown: previous.unknown)
    }

    func split(_ problems: [BuildProblem]) -> ProblemNovelty {
        switch self {
        case .all: ProblemNovelty(problems: problems, files: [:], input: ".", previous: nil)
        case .changedSince(let input, let files, let previous, _):
            ProblemNovelty(problems: problems, files: files, input: input, previous: previous)
        }
    }

    /// The one line said of what was not annotated, or why everything was.
    func notice(_ novelty: ProblemNovelty) -> String? {
        switch self {
        case .all: return nil
        case .changedSince(_, _, _, let unknown?):
            return "every problem is annotated: the previous build's problems are unknown (\(unknown))"
        case .changedSince:
            guard !novelty.unchanged.isEmpty else { return nil }
            let count = novelty.unchanged.count
            return "\(count) \(count == 1 ? "problem" : "problems") on files unchanged since the previous build \(count == 1 ? "is" : "are") not annotated (report.json lists every problem)"
        }
    }
}
