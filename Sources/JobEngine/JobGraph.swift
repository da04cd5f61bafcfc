import TesseraCore

/// A directed acyclic graph of jobs, built by adding jobs whose dependencies are added before or after them.
///
/// Adding a job whose key is already present coalesces it with the existing one: the work runs
/// once and every dependent reads the same result. The graph is checked (missing dependencies,
/// cycles) by `validate()`, which the scheduler calls before running anything.
public struct JobGraph: Sendable {
    /// The jobs in the order first added (the tie-break that keeps scheduling deterministic),
    /// and each key's place among them. Not a dictionary of jobs: its buckets are a power of two,
    /// up to half of them empty, each the size of a job (about 160 bytes), which at 700,000 jobs
    /// (100,000 tiny masters) was 170 MB (issue 54, item 14). The scheduler keeps its own
    /// records by place too (`RunState`).
    private var list: [AnyJob] = []
    private var places: [JobKey: Int] = [:]
    /// How many added jobs were folded into an existing one with the same key.
    public private(set) var coalescedCount = 0

    public init() {}

    /// Adds `job` unless a job with the same key is already present; returns a reference to it
    /// either way, through which its result is read.
    @discardableResult
    public mutating func add<Output>(_ job: Job<Output>) -> JobRef<Output> {
        JobRef(add(job.erased))
    }

    @discardableResult
    mutating func add(_ job: AnyJob) -> JobKey {
        if places[job.key] != nil {
            coalescedCount += 1
            return job.key
        }
        places[job.key] = list.count
        list.append(job)
        return job.key
    }

    public var count: Int { list.count }

    /// Room for `count` jobs, so that planning a large build does not grow the graph step by step.
    public mutating func reserveCapacity(_ count: Int) {
        list.reserveCapacity(count)
        places.reserveCapacity(count)
    }

    /// Every key, in the order first added.
    public var keys: [JobKey] { list.map(\.key) }

    public func job(_ key: JobKey) -> AnyJob? { places[key].map { list[$0] } }

    /// The place of `key`'s job in the order first added.
    func place(of key: JobKey) -> Int? { places[key] }

    /// The job at `place` in the order first added.
    func job(at place: Int) -> AnyJob { list[place] }

    /// The jobs of `keys` alone, in this graph's order: what one shard of a build runs.
    public func restricted(to keys: Set<JobKey>) -> JobGraph {
        var restricted = JobGraph()
        for job in list where keys.contains(job.key) { restricted.add(job) }
        return restricted
    }

    public func contains(_ key: JobKey) -> Bool { places[key] != nil }

    /// Lets go of `key`'s work once it has run: the closure, with the stage's input it captured
    /// (for an aggregating job, every asset's records), and what the cache and a remote executor
    /// would need to run it. Its identity, dependencies and costs stay for the run's bookkeeping
    /// and report. A run of 100,000 masters used to hold every job's input to its end.
    mutating func dropWork(of key: JobKey) {
        guard let place = places[key] else { return }
        list[place].dropWork()
    }

    /// Throws if a job depends on a key not in the graph, or if the jobs form a cycle; a cycle is
    /// reported with every job on it, in order (`decode a.png → encode a.png → decode a.png`).
    public func validate() throws(TesseraError) {
        for job in list {
            for dependency in job.dependencies where places[dependency] == nil {
                throw TesseraError(.internalFailure, file: job.subject, origin: ProblemOrigin(job.kind),
                                   reason: "depends on job \(dependency), which is not in the graph")
            }
        }
        if let cycle = findCycle() {
            let names = cycle.map { key in job(key).map { "\($0.kind) \($0.subject)" } ?? key.short }
            throw TesseraError(.configuration, reason: "the job graph has a cycle (each job depends on the next): \(names.joined(separator: " → "))")
        }
    }

    /// Depth-first search with colours; iterative so that deep chains cannot overflow the stack.
    private func findCycle() -> [JobKey]? {
        enum Colour { case white, grey, black }
        var colour: [JobKey: Colour] = [:]
        for root in list.lazy.map(\.key) where colour[root, default: .white] == .white {
            var stack: [(key: JobKey, next: Int)] = [(root, 0)]
            colour[root] = .grey
            while let top = stack.last {
                let dependencies = list[places[top.key]!].dependencies
                if top.next == dependencies.count {
                    colour[top.key] = .black
                    stack.removeLast()
                    continue
                }
                stack[stack.count - 1].next += 1
                let child = dependencies[top.next]
                switch colour[child, default: .white] {
                case .white:
                    colour[child] = .grey
                    stack.append((child, 0))
                case .grey:
                    let path = stack.map(\.key)
                    let start = path.firstIndex(of: child)!
                    return Array(path[start...]) + [child]
                case .black:
                    continue
                }
            }
        }
        return nil
    }
}
