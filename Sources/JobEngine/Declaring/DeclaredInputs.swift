import Foundation
import Synchronization
import TesseraCore

/// Derives a job's key and dependencies from what its stage declares: the stage's kind and
/// version, and the digests of its `Options` and of the job's `Input` (`InputDigest`: their
/// encodings, hashed as they are made, never held whole).
///
/// Encoding the input visits every `Upstream` and `Prerequisite` it holds, which note their job
/// here: so the dependencies are exactly the upstreams the input carries, and each is in the key.
/// Nothing is listed twice by hand, so no key part or dependency can be forgotten.
enum DeclaredInputs {
    /// The key and the dependencies of a job of `stage` with `options` on `input`.
    static func derive<S: Stage>(_ stage: S, input: S.Input) throws(TesseraError) -> Declaration {
        let upstreams = Collector()
        let sources = SourceCollector()
        let userInfo: [CodingUserInfoKey: Any] = [collectorKey: upstreams, sourcesKey: sources]
        let options: ContentHash, declared: ContentHash
        do {
            options = try InputDigest.of(stage.options, userInfo: userInfo)
            declared = try InputDigest.of(input, userInfo: userInfo)
        } catch {
            throw TesseraError(.internalFailure, origin: ProblemOrigin(S.kind), reason: "cannot encode a \(S.kind) job's input: \(error)")
        }
        var hasher = StableHasher()
        hasher.combine(derivation)
        hasher.combine(S.kind.rawValue)
        hasher.combine(S.version)
        hasher.combine(options)
        hasher.combine(declared)
        return Declaration(key: JobKey(hash: hasher.finalize()), dependencies: upstreams.keys, reads: sources.paths)
    }

    /// Names the derivation: v2 hashed JSON with sorted keys; v3 the options and input as
    /// `InputDigest`s (sets and dictionaries in canonical order, nothing held whole).
    static let derivation = "tessera.job.v3"

    /// What a stage's declarations come to for one input.
    struct Declaration {
        var key: JobKey
        var dependencies: [JobKey]
        /// The files the input names (`SourceFile`), first mention first, each once.
        var reads: [String]
    }

    /// Called by an upstream as it encodes itself.
    static func note(_ key: JobKey, in encoder: any Encoder) {
        (encoder.userInfo[collectorKey] as? Collector)?.add(key)
    }

    /// Called by a source file as it encodes itself.
    static func noteSource(_ path: String, in encoder: any Encoder) {
        (encoder.userInfo[sourcesKey] as? SourceCollector)?.add(path)
    }

    private static let collectorKey = CodingUserInfoKey(rawValue: "tessera.upstreams")!
    private static let sourcesKey = CodingUserInfoKey(rawValue: "tessera.sources")!

    /// The files an input named, first mention first, each once.
    private final class SourceCollector: Sendable {
        private let state = Mutex<(paths: [String], seen: Set<String>)>(([], []))

        func add(_ path: String) {
            state.withLock { if $0.seen.insert(path).inserted { $0.paths.append(path) } }
        }

        var paths: [String] { state.withLock { $0.paths } }
    }

    /// The upstreams an input named, first mention first, each once.
    private final class Collector: Sendable {
        private let state = Mutex<(keys: [JobKey], seen: Set<JobKey>)>(([], []))

        func add(_ key: JobKey) {
            state.withLock { if $0.seen.insert(key).inserted { $0.keys.append(key) } }
        }

        var keys: [JobKey] { state.withLock { $0.keys } }
    }
}
