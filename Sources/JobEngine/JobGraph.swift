import TesseraCore

/// A directed acyclic graph of jobs, built by adding jobs whose dependencies are added before or after them.
///
/// Adding a job whose key is already present coalesces it with the existing one: the work runs
/// once and every dependent reads the same result. The graph is checked (missing dependencies,
/// cycles) by `validate()`, which the scheduler calls before running anything.
public struct JobGraph: Sendable {
    private(set) var jobs: [JobKey: AnyJob] = [:]
    /// Keys in the order first added: the tie-break that keeps scheduling deterministic.
    private(set) var insertionOrder: [JobKey] = []
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
        if jobs[job.key] != nil {
            coalescedCount += 1
            return job.key
        }
        jobs[job.key] = job
        insertionOrder.append(job.key)
        return job.key
    }

    public var count: Int { jobs.count }

    /// Room for `count` jobs, so that planning a large build does not grow the graph step by step.
    public mutating func reserveCapacity(_ count: Int) {
        jobs.reserveCapacity(count)
        insertionOrder.reserveCapacity(count)
    }

    /// Every key, in the order first added.
    public var keys: [JobKey] { insertionOrder }

    public func job(_ key: JobKey) -> AnyJob? { jobs[key] }

    /// The jobs of `keys` alone, in this graph's order: what one shard of a build runs.
    public func restricted(to keys: Set<JobKey>) -> JobGraph {
        var restricted = JobGraph()
        for key in insertionOrder where keys.contains(key) { restricted.add(jobs[key]!) }
        return restricted
    }

    public func contains(_ key: JobKey) -> Bool { jobs[key] != nil }

    /// Lets go of `key`'s work once it has run: the closure, with the stage's input it captured
    /// (for an aggregating job, every asset's records), and what the cache and a remote executor
    /// would need to run it. Its identity, dependencies and costs stay for the run's bookkeeping
    /// and report. A run of 100,000 masters used to hold every job's input to its end.
    mutating func dropWork(of key: JobKey) {
        jobs[key]?.dropWork()
    }

    /// Throws if a job depends on a key not in the graph, or if the jobs form a cycle; a cycle is
    /// reported with every job on it, in order (`decode a.png → encode a.png → decode a.png`).
    public func validate() throws(TesseraError) {
        for key in insertionOrder {
            let job = jobs[key]!
            for dependency in job.dependencies where jobs[dependency] == nil {
                throw TesseraError(.internalFailure, file: job.subject, stage: ProblemOrigin(job.kind),
                                   reason: "depends on job \(dependency), which is not in the graph")
            }
        }
        if let cycle = findCycle() {
            let names = cycle.map { key in jobs[key].map { "\($0.kind) \($0.subject)" } ?? key.short }
            throw TesseraError(.configuration, reason: "the job graph has a cycle (each job depends on the next): \(names.joined(separator: " → "))")
        }
    }

    /// Depth-first search with colours; iterative so that deep chains cannot overflow the stack.
    private func findCycle() -> [JobKey]? {
        enum Colour { case white, grey, black }
        var colour: [JobKey: Colour] = [:]
        for root in insertionOrder where colour[root, default: .white] == .white {
            var stack: [(key: JobKey, next: Int)] = [(root, 0)]
            colour[root] = .grey
            while let top = stack.last {
                let dependencies = jobs[top.key]!.dependencies
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
