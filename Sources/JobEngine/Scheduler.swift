import Dispatch
import TesseraCore

/// Runs every job of a `JobGraph`: the one scheduler all stages share.
///
/// The scheduling loop is a single task that owns all run state, so no locks are needed: it
/// admits ready jobs (highest priority first) while both the concurrency limit and the memory
/// budget allow (running jobs' costs plus results still waiting for readers), waits for any running job to end, records the outcome, releases dependents or
/// skips them if the job failed, and admits again. Job bodies run on Dispatch's global queue,
/// outside Swift's cooperative pool, because stages block in C codecs.
public final class Scheduler: Sendable {
    public let options: SchedulerOptions

    public init(options: SchedulerOptions = SchedulerOptions()) {
        self.options = options
    }

    /// Runs `graph` to completion (or cancellation) and reports every outcome.
    ///
    /// With a `cache`, cacheable jobs are looked up first and only what the misses need runs
    /// (`CacheResolution`); a cacheable job that runs and succeeds with all its inputs is stored.
    /// Throws only when the graph itself is invalid (a cycle, a missing dependency); job failures
    /// are isolated and reported in the `RunReport`.
    ///
    /// A job's work (the closure and the inputs it captured) is dropped once the job has ended
    /// (`JobGraph.dropWork(of:)`): a caller that hands the graph over (`consume`, or a graph it
    /// no longer holds) gets that memory back as the run goes, not at its end; one that keeps its
    /// own copy keeps its jobs whole.
    public func run(_ graph: consuming JobGraph, cancellation: CancellationSource = CancellationSource(),
                    observer: (any SchedulerObserver)? = nil,
                    cache: (any JobCache)? = nil) async throws(TesseraError) -> RunReport {
        try graph.validate()
        var cacheCounts: [JobKind: CacheCounts] = [:]
        if let cache {
            let resolution = await CacheResolution.resolve(graph, cache: cache)
            graph = resolution.graph
            cacheCounts = resolution.counts
        }
        // The state holds the one copy of the graph the run uses, so that dropping a finished
        // job's work changes it in place.
        var state = RunState(graph: consume graph, options: options)
        let clock = ContinuousClock()
        let start = clock.now
        let budget = options.memoryBudget
        let limit = options.maxConcurrentJobs

        func emit(_ event: SchedulerEvent) {
            guard let observer else { return }
            let elapsed = start.duration(to: clock.now)
            observer.scheduler(didEmit: event, progress: state.progress(elapsedSeconds: elapsed.seconds))
        }

        await withTaskGroup(of: Completion.self) { group in
            func admit() {
                while state.running.count < limit, !state.stopping {
                    let idle = state.running.isEmpty
                    let used = state.committedCost
                    // For the test below, which cannot read `state` while `popFirst` changes it.
                    // Let go before the loop drops any job's work (admitting drops none), so
                    // that dropping never copies the graph.
                    let graph = state.graph
                    guard let entry = state.ready.popFirst(where: { entry in
                        idle || used + graph.job(entry.key)!.memoryCost <= budget
                    }) else { return }
                    let job = state.graph.job(entry.key)!
                    state.markStarted(job)
                    emit(.started(job.summary))
                    let inputs = state.dependencyOutcomes(of: job)
                    let context = JobContext(key: job.key, outcomes: inputs, cancellation: cancellation)
                    // A result made from failed inputs is not what the key promises: never stored.
                    let storeIn = job.isCacheHit || !inputs.values.allSatisfy(\.isSuccess) ? nil : cache
                    let ceiling = options.memoryCeiling
                    if job.memoryCost > ceiling {
                        let failure = TesseraError(.limitExceeded, file: job.subject, origin: ProblemOrigin(job.kind),
                                                   reason: "needs about \(ByteCount(bytes: job.memoryCost)) of memory, more than this machine allows one job (\(ByteCount(bytes: ceiling)): three quarters of its physical memory or address-space limit); not run")
                        let now = start.duration(to: clock.now).seconds
                        group.addTask { Completion(key: job.key, result: .failure(failure), span: JobSpan(start: now, end: now, cpuSeconds: 0)) }
                        continue
                    }
                    group.addTask {
                        let began = clock.now
                        let (result, cpu) = await Self.execute(job, context: context, cache: storeIn)
                        let ended = clock.now
                        return Completion(key: job.key, result: result,
                                          span: JobSpan(start: start.duration(to: began).seconds,
                                                        end: start.duration(to: ended).seconds, cpuSeconds: cpu))
                    }
                }
            }

            for entry in state.initiallyReady() { state.ready.push(entry) }
            admit()
            while let completion = await group.next() {
                let job = state.graph.job(completion.key)!
                state.markEnded(job)
                state.graph.dropWork(of: job.key)
                if completion.result.isSuccessOrFailure, !job.isCacheHit { state.spans[job.kind, default: []].append(completion.span) }
                switch completion.result {
                case .success(let value):
                    state.record(.succeeded(value), for: job.key)
                    emit(.finished(job.summary, seconds: completion.span.end - completion.span.start))
                case .failure(let error) where error.kind == .cancelled && cancellation.isCancelled:
                    state.record(.cancelled, for: job.key)
                    emit(.skipped(job.summary, error))
                case .failure(let error):
                    state.record(.failed(error), for: job.key)
                    state.failureCount += 1
                    emit(.failed(job.summary, error, seconds: completion.span.end - completion.span.start))
                    if options.failFast { cancellation.cancel() }
                }
                for skipped in state.release(dependentsOf: job.key) {
                    if case .skipped(let error) = state.outcome(of: skipped.key) {
                        emit(.skipped(skipped.summary, error))
                    }
                }
                if cancellation.isCancelled || Task.isCancelled {
                    cancellation.cancel()
                    state.stopping = true
                }
                admit()
            }
        }

        await cache?.finishRun()
        var report = state.report(cancelled: cancellation.isCancelled)
        report.cache = cacheCounts
        return report
    }

    private struct Completion: Sendable {
        let key: JobKey
        let result: Result<any Sendable, TesseraError>
        let span: JobSpan
    }

    /// Runs the job's body on a Dispatch thread; returns its result and the CPU time that thread spent.
    private static func execute(_ job: AnyJob, context: JobContext,
                                cache: (any JobCache)?) async -> (Result<any Sendable, TesseraError>, Double) {
        await withCheckedContinuation { continuation in
            DispatchQueue.global(qos: .userInitiated).async {
                let cpuStart = ThreadCPUClock.now()
                let result = run(job, context: context, cache: cache)
                context.releaseInputs()
                let cpu = ThreadCPUClock.now() - cpuStart
                // Consumed, so this thread holds no reference once the scheduler has the result:
                // a result released when its last reader ends is really freed then, not later.
                continuation.resume(returning: (consume result, cpu))
            }
        }
    }

    private static func run(_ job: AnyJob, context: JobContext, cache: (any JobCache)?) -> Result<any Sendable, TesseraError> {
        do {
            try context.checkCancellation()
            let value = try job.work(context)
            // A result that cannot be described for the cache is simply not stored.
            if let cache, let caching = job.caching, let described = try? caching.encode(value) {
                cache.store(caching.cacheKey(for: job), kind: job.kind, result: described, from: caching.root)
            }
            return .success(value)
        } catch {
            return .failure(TesseraError.wrapping(error))
        }
    }
}

extension Result where Failure == TesseraError {
    /// False for a job that never really ran (cancelled before or while starting).
    fileprivate var isSuccessOrFailure: Bool {
        if case .failure(let error) = self, error.kind == .cancelled { return false }
        return true
    }
}

extension Duration {
    var seconds: Double {
        let (whole, attoseconds) = components
        return Double(whole) + Double(attoseconds) / 1e18
    }
}
