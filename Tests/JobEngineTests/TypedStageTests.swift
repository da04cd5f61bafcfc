import Foundation
@testable import JobEngine
import Synchronization
import Testing
import TesseraCore

/// A stage as the pipeline declares one: its input (text to add and the upstream it reads), its
/// options, a typed, cacheable output; the engine derives key and dependencies from them.
private struct MeasureStage: Stage {
    struct Input: Encodable, Sendable {
        let text: String
        let upstream: Upstream<String>
    }
    struct Options: Codable, Hashable, Sendable {
        var separator = ""
    }
    typealias Output = Measured
    static let kind = JobKind.write
    static let version = 1
    static let priority = 0
    static let keepsResults = true
    var options = Options()
    let runs: Instruments

    func subject(of input: Input) -> String { input.text }
    func cacheRoot(for input: Input) -> String? { "/out" }

    func run(_ input: Input, context: JobContext) throws -> Measured {
        runs.enter(input.text, cost: 0)
        runs.leave(cost: 0)
        let upstream = try input.upstream.value(in: context)
        let text = upstream + options.separator + input.text
        return Measured(text: text, length: text.count)
    }

    func job(_ text: String, from input: JobRef<String>) -> Job<Measured> {
        job(Input(text: text, upstream: Upstream(input)))
    }
}

private struct Measured: CachedOutput, Equatable {
    let text: String
    let length: Int
    var files: [String] { ["measured/\(text).txt"] }
}

/// Keeps entries in memory, files and all, as a store would.
private final class MemoryCache: JobCache {
    let entries = Mutex<[ContentHash: (kind: JobKind, result: CachedResult)]>([:])
    var lookupConcurrency: Int { 1 }
    var warnings: [String] { [] }
    func restore(_ key: ContentHash, kind: JobKind, into root: String) -> [UInt8]? {
        entries.withLock { $0[key] }.flatMap { $0.kind == kind ? $0.result.metadata : nil }
    }
    func store(_ key: ContentHash, kind: JobKind, result: CachedResult, from root: String) {
        entries.withLock { $0[key] = (kind, result) }
    }
    func finishRun() async {}
}

@Suite("Typed stages")
struct TypedStageTests {
    /// A stage input with what used to drift: a set, an enum-keyed dictionary, an optional.
    private struct DriftProneStage: Stage {
        enum Idiom: String, Codable, Sendable { case iphone, ipad, tv }
        struct Input: Encodable, Sendable {
            let idioms: Set<Idiom>
            let scales: [Idiom: Double]
            let note: String?
        }
        struct Options: Codable, Hashable, Sendable { var families: Set<String> = ["b", "a"] }
        typealias Output = String
        static let kind = JobKind.encode
        static let version = 3
        static let priority = 0
        var options = Options()
        func subject(of input: Input) -> String { "drift" }
        func run(_ input: Input, context: JobContext) throws -> String { "" }
    }

    @Test("the key derivation in use (tessera.job.v3, canonical bytes) is pinned by a literal hash")
    func derivationIsPinned() throws {
        let input = DriftProneStage.Input(idioms: [.tv, .iphone, .ipad], scales: [.ipad: 2, .iphone: 3], note: nil)
        let key = try DeclaredInputs.derive(DriftProneStage(), input: input).key
        #expect(DeclaredInputs.derivation == "tessera.job.v3")
        // A change in how a stage's declaration reaches the digest moves every cache key: it must
        // be made on purpose, with a new derivation name and this literal.
        #expect(key.hash.hex == "236049039161f19d6342a174a2085e3033a0ac88e76b0cdccf98ba0586b9fee0")
    }

    @Test("a dependent reads its input with the type its stage declared, and the caller reads the result by its ref")
    func typedResultsFlowThroughTheGraph() async throws {
        var graph = JobGraph()
        let runs = Instruments()
        let source = graph.add(Job(key: FakeJobs.key("source"), kind: .decode, subject: "source") { _ in "ab" })
        let measured = graph.add(MeasureStage(runs: runs).job("cd", from: source))
        let report = try await Scheduler().run(graph)
        #expect(report.value(of: measured) == Measured(text: "abcd", length: 4))
        #expect(graph.job(measured.key)?.kind == .write)
    }

    @Test("a CachedOutput is stored as its Codable form with the files it names, and a hit returns it without running the job")
    func cachedOutputRoundTrips() async throws {
        let cache = MemoryCache()
        let runs = Instruments()
        func graph() -> (JobGraph, JobRef<Measured>) {
            var graph = JobGraph()
            let source = graph.add(Job(key: FakeJobs.key("source"), kind: .decode, subject: "source") { _ in "ab" })
            let measured = graph.add(MeasureStage(runs: runs).job("cd", from: source))
            return (graph, measured)
        }
        let (first, made) = graph()
        let built = try await Scheduler().run(first, cache: cache)
        #expect(built.cache[.write]?.misses == 1)
        let stored = try #require(cache.entries.withLock { $0.values.first { $0.kind == .write } })
        #expect(stored.result.files == ["measured/abcd.txt"])
        #expect(try StableJSON.decode(Measured.self, from: stored.result.metadata, source: "test")
            == Measured(text: "abcd", length: 4))

        let (second, again) = graph()
        let restored = try await Scheduler().run(second, cache: cache)
        #expect(runs.runs(of: "cd") == 1, "the hit must not run the job again")
        #expect(restored.cache[.write]?.hits == 1 && restored.cache[.decode]?.avoided == 1)
        #expect(restored.value(of: again) == built.value(of: made))
        #expect(restored.value(of: again) == Measured(text: "abcd", length: 4))
    }

    @Test("a job's dependencies are exactly the upstreams its input holds, and its key changes with every input part, option and upstream")
    func keyAndDependenciesComeFromTheDeclarations() {
        let runs = Instruments()
        let first = JobRef<String>(FakeJobs.key("first")), second = JobRef<String>(FakeJobs.key("second"))
        let stage = MeasureStage(runs: runs)
        let job = stage.job("cd", from: first)
        #expect(job.erased.dependencies == [first.key])
        let keys = [
            job.key,
            stage.job("ce", from: first).key,
            stage.job("cd", from: second).key,
            MeasureStage(options: .init(separator: "-"), runs: runs).job("cd", from: first).key,
            stage.job(.init(text: "cd", upstream: Upstream(JobRef<[String]>(first.key), part: "last") { $0.last })).key,
        ]
        #expect(Set(keys).count == keys.count, "each change must make another key")
        #expect(stage.job("cd", from: first).key == job.key, "the same declarations make the same key")
    }
}
