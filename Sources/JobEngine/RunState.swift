import TesseraCore

/// The bookkeeping of one scheduler run, owned by the scheduling loop alone.
///
/// Kept by each job's place in the graph (`JobGraph.place(of:)`), in arrays, not in dictionaries
/// keyed by job: five dictionaries of 700,000 jobs (100,000 tiny masters) were about 160 MB of
/// buckets and dependents' arrays; these arrays are about a third of that (issue 54, item 14).
struct RunState {
    /// The run's jobs; a job's work is dropped once it has ended (`Scheduler.run`).
    var graph: JobGraph
    var ready = ReadyQueue()
    var running: Set<JobKey> = []
    var runningCost = 0
    /// Memory held by finished jobs' results that some dependent has yet to read.
    var heldCost = 0
    var failureCount = 0
    var stopping = false
    /// How long each stage's jobs ran, for `RunReport.stageTimings`.
    var spans: [JobKind: [JobSpan]] = [:]
    /// How each job ended, by place; nil while it has not.
    private var outcomes: [JobOutcome?]
    private var endedCount = 0
    /// Dependencies each job still waits for, by place.
    private var pendingDependencies: [Int32]
    /// The places of job `p`'s dependents, in the graph's order, are
    /// `dependents[dependentsStart[p]..<dependentsStart[p + 1]]`.
    private var dependentsStart: [Int32]
    private var dependents: [Int32]
    /// Dependents of each job that have not ended, by place: its result is held until none is left.
    private var unfinishedDependents: [Int32]
    /// The tie-break of shuffled runs, by place; empty when it is the place itself (insertion order).
    private var ranks: [UInt64] = []
    private var peakRunning = 0
    private var peakCost = 0
    private var startOrder: [JobKey] = []

    init(graph: JobGraph, options: SchedulerOptions) {
        self.graph = graph
        let count = graph.count
        outcomes = Array(repeating: nil, count: count)
        pendingDependencies = Array(repeating: 0, count: count)
        unfinishedDependents = Array(repeating: 0, count: count)
        // A job listing the same dependency twice still waits for it once.
        var starts = [Int32](repeating: 0, count: count + 1)
        for place in 0..<count {
            let unique = Set(graph.job(at: place).dependencies)
            pendingDependencies[place] = Int32(unique.count)
            for dependency in unique {
                let from = graph.place(of: dependency)!
                starts[from + 1] += 1
                unfinishedDependents[from] += 1
            }
        }
        for place in 0..<count { starts[place + 1] += starts[place] }
        var filled = Array(starts.dropLast())
        var list = [Int32](repeating: 0, count: Int(starts[count]))
        for place in 0..<count {
            for dependency in Set(graph.job(at: place).dependencies) {
                let from = graph.place(of: dependency)!
                list[Int(filled[from])] = Int32(place)
                filled[from] += 1
            }
        }
        dependentsStart = starts
        dependents = list
        if case .shuffled(let seed) = options.tieBreak {
            var generator = SplitMix64(seed: seed)
            ranks = (0..<count).map { _ in generator.next() }
        }
    }

    func initiallyReady() -> [ReadyQueue.Entry] {
        (0..<graph.count).filter { pendingDependencies[$0] == 0 }.map(entry(at:))
    }

    private func entry(at place: Int) -> ReadyQueue.Entry {
        ReadyQueue.Entry(key: graph.job(at: place).key, priority: graph.job(at: place).priority,
                         rank: ranks.isEmpty ? UInt64(place) : ranks[place])
    }

    /// How `key` ended; nil while it has not.
    func outcome(of key: JobKey) -> JobOutcome? {
        graph.place(of: key).flatMap { outcomes[$0] }
    }

    func dependencyOutcomes(of job: AnyJob) -> [JobKey: JobOutcome] {
        // Sized once: the gather reads every variant of the build (400,000 outcomes at 100,000
        // tiny masters), and a table grown by doubling held its last two sizes at once, at the
        // build's peak (issue 54, item 14).
        let dependencies = job.dependencies
        var result: [JobKey: JobOutcome] = [:]
        result.reserveCapacity(dependencies.count)
        for dependency in dependencies { result[dependency] = outcome(of: dependency) }
        return result
    }

    mutating func markStarted(_ job: AnyJob) {
        running.insert(job.key)
        runningCost += job.memoryCost
        startOrder.append(job.key)
        peakRunning = max(peakRunning, running.count)
        peakCost = max(peakCost, runningCost + heldCost)
    }

    /// The estimated memory in use: running jobs plus results waiting for their readers.
    var committedCost: Int { runningCost + heldCost }

    mutating func markEnded(_ job: AnyJob) {
        running.remove(job.key)
        runningCost -= job.memoryCost
    }

    /// Records how `key` ended. A successful result with readers is held (and counted) until they
    /// have all ended; then it is dropped, which is what keeps a long run's memory flat.
    mutating func record(_ outcome: JobOutcome, for key: JobKey) {
        let place = graph.place(of: key)!
        if outcomes[place] == nil { endedCount += 1 }
        outcomes[place] = outcome
        if outcome.isSuccess, unfinishedDependents[place] > 0 {
            heldCost += graph.job(at: place).resultMemoryCost
        }
        consumeInputs(of: place)
    }

    /// One more reader of each of the dependencies of the job at `place` has ended; release results
    /// nobody needs any more.
    private mutating func consumeInputs(of place: Int) {
        for dependency in Set(graph.job(at: place).dependencies) {
            let from = graph.place(of: dependency)!
            unfinishedDependents[from] -= 1
            let job = graph.job(at: from)
            if unfinishedDependents[from] == 0, !job.keepsResult, case .succeeded = outcomes[from] {
                outcomes[from] = .succeeded(ReleasedResult())
                heldCost -= job.resultMemoryCost
            }
        }
    }

    /// Called once `key` has an outcome: dependents whose last dependency this was become ready;
    /// if it did not succeed, dependents that need it are skipped, transitively. Returns the jobs skipped.
    mutating func release(dependentsOf key: JobKey) -> [AnyJob] {
        var skipped: [AnyJob] = []
        var queue = [graph.place(of: key)!]
        while let finished = queue.popLast() {
            let succeeded = outcomes[finished]?.isSuccess ?? false
            for index in Int(dependentsStart[finished])..<Int(dependentsStart[finished + 1]) {
                let dependent = Int(dependents[index])
                guard outcomes[dependent] == nil else { continue }
                let job = graph.job(at: dependent)
                if !succeeded && !job.toleratesFailedDependencies {
                    let cause = graph.job(at: finished)
                    record(.skipped(TesseraError(
                        .dependencyFailed, file: job.subject, origin: ProblemOrigin(job.kind),
                        reason: "not run because \(cause.kind) of \(cause.subject) did not succeed")), for: job.key)
                    skipped.append(job)
                    queue.append(dependent)
                    continue
                }
                pendingDependencies[dependent] -= 1
                if pendingDependencies[dependent] == 0 { ready.push(entry(at: dependent)) }
            }
        }
        return skipped
    }

    func progress(elapsedSeconds: Double) -> RunProgress {
        RunProgress(total: graph.count, done: endedCount, failed: failureCount, running: running.count,
                    elapsedSeconds: elapsedSeconds)
    }

    func report(cancelled: Bool) -> RunReport {
        var all: [JobKey: JobOutcome] = [:]
        all.reserveCapacity(graph.count)
        var failures: [JobFailure] = []
        var skippedCount = 0, cancelledCount = 0
        for place in 0..<graph.count {
            let job = graph.job(at: place)
            let outcome = outcomes[place] ?? .cancelled
            all[job.key] = outcome
            switch outcome {
            case .failed(let error): failures.append(JobFailure(job: job.summary, error: error))
            case .skipped: skippedCount += 1
            case .cancelled: cancelledCount += 1
            case .succeeded: break
            }
        }
        failures.sort { ($0.job.subject, $0.job.kind, $0.job.key) < ($1.job.subject, $1.job.kind, $1.job.key) }
        return RunReport(outcomes: all, failures: failures, skippedCount: skippedCount,
                         cancelledCount: cancelledCount, wasCancelled: cancelled, peakRunningJobs: peakRunning,
                         peakEstimatedMemory: peakCost, startOrder: startOrder,
                         stageTimings: StageTiming.summarise(spans))
    }
}

/// What an intermediate job's outcome holds once every reader is done with its result.
struct ReleasedResult: Sendable {}

/// A tiny, fast, seedable generator (Steele, Lea and Flood's SplitMix64): enough for tie-breaks.
struct SplitMix64: RandomNumberGenerator {
    private var state: UInt64

    init(seed: UInt64) { state = seed }

    mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE5_E9B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }
}
