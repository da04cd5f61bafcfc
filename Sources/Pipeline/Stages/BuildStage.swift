import JobEngine
import TesseraCore

/// A stage of the build. Its version and typed name go into every job key it makes, so a new
/// version, like a changed option, never reuses an old result; what a job writes is described
/// by its caching (`StageCaching`).
protocol BuildStage {
    /// Bumped whenever the same inputs and options would give different outputs.
    static var version: Int { get }
}

extension BuildStage {
    /// The key of one of this stage's jobs: its name, this stage's version, the options that
    /// change its output, and the content of its inputs.
    static func key(_ name: StageName, options: [String: String] = [:], inputs: [ContentHash] = []) -> JobKey {
        JobKey(stage: name, version: version, options: options, inputs: inputs)
    }
}
