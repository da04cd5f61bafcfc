import TesseraCore

/// The stable identity of a job: SHA-256 over its stage, the stage's version, its options and the
/// content hashes of its inputs.
///
/// Two jobs with the same key do the same work on the same bytes, so the engine runs them once
/// and shares the result. Bumping a stage's version changes every key it makes, which is how a
/// changed algorithm invalidates cached results.
public struct JobKey: Hashable, Comparable, Sendable, CustomStringConvertible {
    public let hash: ContentHash

    public init(hash: ContentHash) { self.hash = hash }

    /// Derives a key. Options are hashed sorted by name, so their order in a dictionary or a
    /// pipeline file never matters; inputs are hashed in the order given, which is part of the job's meaning.
    public init(kind: JobKind, version: Int, options: [String: String] = [:], inputs: [ContentHash] = []) {
        var hasher = StableHasher()
        hasher.combine("tessera.job.v1")
        hasher.combine(kind.rawValue)
        hasher.combine(version)
        hasher.combine(options.count)
        for (name, value) in options.sorted(by: { $0.key < $1.key }) {
            hasher.combine(name)
            hasher.combine(value)
        }
        hasher.combine(inputs.count)
        for input in inputs { hasher.combine(input) }
        self.hash = hasher.finalize()
    }

    /// The first 12 hex digits: enough to tell jobs apart in logs.
    public var short: String { String(hash.hex.prefix(12)) }

    public var description: String { short }

    public static func < (lhs: JobKey, rhs: JobKey) -> Bool { lhs.hash < rhs.hash }
}
