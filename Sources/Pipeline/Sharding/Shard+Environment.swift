import Foundation
import TesseraCore

extension Shard {
    /// The CI parallel-job variables `--shard auto` reads, in this order: Buildkite
    /// (`BUILDKITE_PARALLEL_JOB`, 0-based, of `BUILDKITE_PARALLEL_JOB_COUNT`), GitLab
    /// (`CI_NODE_INDEX`, 1-based, of `CI_NODE_TOTAL`), CircleCI (`CIRCLE_NODE_INDEX`, 0-based, of
    /// `CIRCLE_NODE_TOTAL`).
    static let ciVariables: [(index: String, count: String, firstIndex: Int, ci: String)] = [
        ("BUILDKITE_PARALLEL_JOB", "BUILDKITE_PARALLEL_JOB_COUNT", 0, "Buildkite"),
        ("CI_NODE_INDEX", "CI_NODE_TOTAL", 1, "GitLab"),
        ("CIRCLE_NODE_INDEX", "CIRCLE_NODE_TOTAL", 0, "CircleCI"),
    ]

    /// This job's shard from the CI's parallel-job variables; an error naming them when none is
    /// set, or when a set pair is not a valid index and count.
    public init(environment: [String: String] = ProcessInfo.processInfo.environment) throws(TesseraError) {
        for variables in Self.ciVariables {
            guard let indexText = environment[variables.index], let countText = environment[variables.count] else { continue }
            guard let index = Int(indexText), let count = Int(countText) else {
                throw TesseraError(.configuration, reason: "--shard auto: \(variables.ci)'s \(variables.index)=\(indexText) and "
                    + "\(variables.count)=\(countText) are not whole numbers")
            }
            try self.init(index: index - variables.firstIndex + 1, count: count)
            return
        }
        let names = Self.ciVariables.map { "\($0.index)/\($0.count) (\($0.ci))" }.joined(separator: ", ")
        throw TesseraError(.configuration, reason: "--shard auto: no CI parallel-job variables are set; expected one of \(names), or give --shard I/N")
    }
}
