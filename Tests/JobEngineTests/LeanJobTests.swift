@testable import JobEngine
import Testing
import TesseraCore

/// What a planned job holds until it runs, made lean (issue 54, item 14): at 100,000 tiny masters
/// the graph holds 700,000 jobs from planning to the run's end, and every closure context, joined
/// path and inline copy each one holds is an allocation among the pages freed work leaves.
@Suite("Lean planned jobs")
struct LeanJobTests {
    private struct Written: CachedOutput, Equatable {
        let path: String
        var files: [String] { [path] }
    }

    /// A stage writing a file under a folder, as the write, copy and object stages do.
    private struct PlaceStage: Stage {
        struct Input: Encodable, Sendable {
            let path: String
            let upstream: Upstream<String>
        }
        typealias Output = Written
        static let kind = JobKind.write
        static let version = 1
        static let priority = 0
        static let keepsResults = true
        let outputFolder: String

        func subject(of input: Input) -> String { jobSubject(of: input).text }
        func jobSubject(of input: Input) -> JobSubject { JobSubject(input.path, under: outputFolder) }
        func cacheRoot(for input: Input) -> String? { outputFolder }
        func cachedFiles(for input: Input) -> [String]? { [input.path] }

        func run(_ input: Input, context: JobContext) throws -> Written {
            Written(path: input.path + "/" + (try input.upstream.value(in: context)))
        }
    }

    /// Whether `value` holds a closure among its stored properties, looking into optionals.
    private func holdsClosure(_ value: Any) -> Bool {
        Mirror(reflecting: value).children.contains { child in
            let unwrapped = Mirror(reflecting: child.value)
            if unwrapped.displayStyle == .optional {
                // nil holds nothing.
                return unwrapped.children.first.map { "\(Swift.type(of: $0.value))".contains("->") } ?? false
            }
            return "\(Swift.type(of: child.value))".contains("->")
        }
    }

    @Test("a cached job's codec is its result's type, not closures, and still round-trips the result")
    func cachingHoldsNoClosures() throws {
        var graph = JobGraph()
        let source = graph.add(Job(key: FakeJobs.key("source"), kind: .decode, subject: "source") { _ in "ab" })
        let job = PlaceStage(outputFolder: "/out").job(.init(path: "a.png", upstream: Upstream(source)))
        let caching = try #require(job.erased.caching)
        #expect(!holdsClosure(caching))
        let stored = try caching.encode(Written(path: "a.png"))
        #expect(stored.files == ["a.png"])
        #expect(try caching.decode(stored.metadata) as? Written == Written(path: "a.png"))
        #expect(throws: TesseraError.self) { try caching.encode("not a Written") }
    }

    @Test("an upstream of a whole result holds no closure; one of a part does, and both read their value")
    func wholeUpstreamHoldsNoClosure() async throws {
        var graph = JobGraph()
        let source = graph.add(Job(key: FakeJobs.key("source"), kind: .decode, subject: "source") { _ in "ab" })
        let whole = Upstream(source)
        let part = Upstream<String>(source, part: "first") { String($0.prefix(1)) }
        #expect(!holdsClosure(whole))
        #expect(holdsClosure(part))
        let stage = PlaceStage(outputFolder: "/out")
        let fromWhole = graph.add(stage.job(.init(path: "w", upstream: whole)))
        let fromPart = graph.add(stage.job(.init(path: "p", upstream: part)))
        let report = try await Scheduler(options: SchedulerOptions(maxConcurrentJobs: 1)).run(graph)
        #expect(report.outcomes[fromWhole.key]?.value(as: Written.self) == Written(path: "w/ab"))
        #expect(report.outcomes[fromPart.key]?.value(as: Written.self) == Written(path: "p/a"))
    }

    @Test("a job keeps a subject under a folder as the folder and the path, and reads it as the stage's subject")
    func subjectKeptInParts() {
        var graph = JobGraph()
        let source = graph.add(Job(key: FakeJobs.key("source"), kind: .decode, subject: "source") { _ in "ab" })
        let stage = PlaceStage(outputFolder: "/out/build")
        let input = PlaceStage.Input(path: "Many/a@2x.png", upstream: Upstream(source))
        let job = stage.job(input).erased
        #expect(job.subject == stage.subject(of: input))
        #expect(job.subject == "/out/build/Many/a@2x.png")
        #expect(job.subjectParts == JobSubject("Many/a@2x.png", under: "/out/build"))
        #expect(job.summary.subject == "/out/build/Many/a@2x.png")
        // A job made with its subject as text keeps it whole.
        #expect(graph.job(source.key)?.subjectParts == JobSubject("source"))
    }

    @Test("a job's one dependency, one file read and one cached file are kept inline, and read back as arrays")
    func shortListsInline() {
        var graph = JobGraph()
        let source = graph.add(Job(key: FakeJobs.key("source"), kind: .decode, subject: "source") { _ in "ab" })
        var job = PlaceStage(outputFolder: "/out").job(.init(path: "a.png", upstream: Upstream(source))).erased
        job.reads = ["/in/a@3x.png"]
        #expect(job.dependencies == [source.key])
        #expect(job.dependencyList.isInline)
        #expect(job.reads == ["/in/a@3x.png"])
        #expect(job.caching?.files == ["a.png"])
        #expect(job.caching?.fileList?.isInline == true)
        for elements in [[], ["a"], ["a", "b", "a"]] {
            #expect(CompactList(elements).array == elements)
            #expect(CompactList(elements).isInline == (elements.count < 2))
        }
    }

    @Test("what only running a job needs is one box the job lets go of when it ends; the graph's record of a job is small")
    func runnablePartDropped() async throws {
        // The graph holds one record per job to the run's end: 200 bytes with the work, caching
        // and files read inline, 88 with them boxed (100,000 tiny masters: 700,000 jobs).
        #expect(MemoryLayout<AnyJob>.stride <= 96)
        // An outcome, kept per job and per dependency of the gather: a result's size, errors boxed.
        #expect(MemoryLayout<JobOutcome?>.stride <= 40)
        var graph = JobGraph()
        let source = graph.add(Job(key: FakeJobs.key("source"), kind: .decode, subject: "source") { _ in "ab" })
        var job = PlaceStage(outputFolder: "/out").job(.init(path: "a.png", upstream: Upstream(source))).erased
        let copy = job
        job.reads = ["/in/a@3x.png"]
        // A change makes the job a box of its own: a copy keeps what it had.
        #expect(job.reads == ["/in/a@3x.png"] && copy.reads.isEmpty)
        #expect(job.caching?.files == ["a.png"] && copy.caching?.files == ["a.png"])
        graph.add(job)
        #expect(graph.job(job.key)?.holdsWork == true)
        graph.dropWork(of: job.key)
        let dropped = try #require(graph.job(job.key))
        #expect(!dropped.holdsWork && dropped.caching == nil && dropped.reads.isEmpty)
        #expect(dropped.subject == "/out/a.png" && dropped.dependencies == [source.key] && dropped.kind == .write)
        let context = JobContext(key: job.key, outcomes: [:], cancellation: CancellationSource())
        #expect(throws: TesseraError.self) { _ = try dropped.work(context) }
        // Dropping a job's work leaves a copy made before whole, and runs it as before.
        #expect(copy.holdsWork)
        let report = try await Scheduler(options: SchedulerOptions(maxConcurrentJobs: 1)).run(graph)
        #expect(report.outcomes[job.key].map { if case .failed = $0 { true } else { false } } == true)
        var fresh = JobGraph()
        fresh.add(graph.job(source.key)!)
        fresh.add(copy)
        let rerun = try await Scheduler(options: SchedulerOptions(maxConcurrentJobs: 1)).run(fresh)
        #expect(rerun.outcomes[copy.key]?.value(as: Written.self) == Written(path: "a.png/ab"))
    }
}
