#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import Logging
import NIOCore
import NIOPosix
import Synchronization

/// Where `tessera serve` writes its log: whoever logs a line writes out every pending line,
/// unless another thread is writing already, in which case that thread writes this line too
/// before it lets go. A quiet server writes each line at once; a busy one writes many lines per
/// `write`. A line logged on a NIO event loop (a bundle answered by `BundleConnectionHandler`)
/// is written at the end of the loop's current iteration, with every other line logged
/// meanwhile; if the log was written less than `busyWritePause` (10 ms) ago, that pause later.
/// So a busy server makes about one `write` per pause (nginx's buffered log: one per 64 KiB or
/// second), where one per request cost 4% of a 64 KiB range's CPU time and one per iteration
/// (~12 requests) 1.2% (by `perf`), and a quiet server's line is still written at once.
///
/// swift-log's stream handler makes one unbuffered `write` per line (about 3% of a query's CPU
/// time under load, by `perf`), with every request thread queueing on one lock for it. Lines and
/// their format are the same; the time stamp is formatted once a second. One lock guards the
/// pending lines and who writes them, taken twice per line when nobody else is logging: with
/// separate locks for each (four lock operations a line) the two event loops met on them often
/// enough for ~0.3 `futex` calls per bundle request.
public final class BufferedLogOutput: Sendable {
    private let descriptor: Int32
    private let state = Mutex<State>(State())
    private let clock = Mutex<(second: Int, text: String)>((-1, ""))

    private struct State {
        var pending: [UInt8] = []
        /// Whether a thread is writing; only that one writes, so batches reach the descriptor in order.
        var isWriting = false
        /// The writer's buffer, swapped with `pending` so neither is allocated anew per batch.
        var spare: [UInt8] = []
        /// Whether an event loop will write the pending lines (at the end of its iteration, or
        /// after `busyWritePause`).
        var isWriteScheduled = false
        /// When the last batch was written.
        var lastWrite = ContinuousClock.now - .seconds(60)

        /// The pending lines, for the caller to write; `isWriting` is set until it has.
        mutating func takeBatch() -> [UInt8] {
            isWriting = true
            let batch = pending
            pending = spare
            spare = []
            return batch
        }
    }

    public init(descriptor: Int32 = 2) { self.descriptor = descriptor }

    /// A logger writing here in swift-log's stream format.
    public func logger(label: String) -> Logger {
        Logger(label: label) { label in BufferedLogHandler(label: label, output: self) }
    }

    /// An `info` line with no metadata, exactly as `logger(label:)`'s logger would write it from
    /// module `source`, its message written by `message` straight into the pending bytes: without
    /// swift-log's per-line work or intermediate strings (together 2.3% of a 64 KiB bundle
    /// range's CPU time, by `perf`). `message` runs under the log's lock: it only appends.
    func info(label: String, source: String, message: (inout [UInt8]) -> Void) {
        let time = timestamp()
        append { line in
            line.append(contentsOf: time.utf8)
            line.append(contentsOf: Self.infoLevel.utf8)
            line.append(contentsOf: label.utf8)
            line.append(contentsOf: ": [".utf8)
            line.append(contentsOf: source.utf8)
            line.append(contentsOf: "] ".utf8)
            message(&line)
            line.append(UInt8(ascii: "\n"))
        }
    }

    /// `line`'s text between the time stamp and the label at `info`.
    private static let infoLevel = " \(Logger.Level.info) "

    /// swift-log's stream format: `TIME LEVEL LABEL: METADATA [SOURCE] MESSAGE`.
    static func line(timestamp: String, level: Logger.Level, label: String, metadata: String, source: String,
                     message: some CustomStringConvertible) -> String {
        "\(timestamp) \(level) \(label):\(metadata) [\(source)] \(message)\n"
    }

    private enum Next {
        case write([UInt8])
        case schedule(later: Bool)
        case nothing
    }

    /// How long lines logged on an event loop may wait for their write when the log was written
    /// less than this long ago: on a busy server one `write` a pause, where a write per
    /// event-loop iteration (~12 bundle requests) cost 1.2% of a 64 KiB range's CPU time.
    static let busyWritePause = TimeAmount.milliseconds(10)

    func append(_ line: String) {
        append { $0.append(contentsOf: line.utf8) }
    }

    /// Appends a line written by `writeLine` (under the lock; it only appends) and has it written.
    private func append(_ writeLine: (inout [UInt8]) -> Void) {
        let loop = MultiThreadedEventLoopGroup.currentEventLoop
        let next: Next = state.withLock { state in
            writeLine(&state.pending)
            // A writer at work takes this line with its next batch, before it lets go; so does a
            // write scheduled on an event loop.
            if state.isWriting || state.isWriteScheduled { return .nothing }
            guard loop != nil else { return .write(state.takeBatch()) }
            state.isWriteScheduled = true
            // A quiet server's line is written at the end of the loop's iteration.
            return .schedule(later: ContinuousClock.now - state.lastWrite < .nanoseconds(Self.busyWritePause.nanoseconds))
        }
        switch next {
        case let .write(batch): writeBatches(startingWith: batch)
        case .schedule(later: false): loop?.execute { self.writeScheduled() }
        case .schedule(later: true):
            loop?.scheduleTask(in: Self.busyWritePause) { self.writeScheduled() }
        case .nothing: break
        }
    }

    /// Run by an event loop after the work of the iteration that scheduled it.
    private func writeScheduled() {
        let batch: [UInt8]? = state.withLock { state in
            state.isWriteScheduled = false
            return state.isWriting || state.pending.isEmpty ? nil : state.takeBatch()
        }
        if let batch { writeBatches(startingWith: batch) }
    }

    /// Writes out every line logged so far, waiting for a write in progress.
    public func flush() {
        while true {
            let batch: [UInt8]? = state.withLock { state in
                state.isWriting || state.pending.isEmpty ? nil : state.takeBatch()
            }
            if let batch {
                writeBatches(startingWith: batch)
                return
            }
            if state.withLock({ !$0.isWriting && $0.pending.isEmpty }) { return }
            usleep(100)  // another thread is writing: at exit only, so a short sleep beats a condition
        }
    }

    /// Called by the one thread that set `isWriting`; clears it once nothing is pending.
    private func writeBatches(startingWith first: [UInt8]) {
        var batch = first
        while true {
            writeOut(batch)
            batch.removeAll(keepingCapacity: true)
            let written = ContinuousClock.now
            let next: [UInt8]? = state.withLock { [batch] state in
                state.spare = batch
                state.lastWrite = written
                guard !state.pending.isEmpty else {
                    state.isWriting = false
                    return nil
                }
                return state.takeBatch()
            }
            guard let next else { return }
            batch = next
        }
    }

    private func writeOut(_ bytes: [UInt8]) {
        var done = 0
        while done < bytes.count {
            let count = bytes.withUnsafeBytes { write(descriptor, $0.baseAddress! + done, $0.count - done) }
            if count < 0 && errno == EINTR { continue }
            if count <= 0 { break }  // nowhere to log to; dropping lines beats stopping the server
            done += count
        }
    }

    /// The local time as swift-log's stream handler prints it, formatted once a second.
    func timestamp() -> String {
        var now = time(nil)
        return clock.withLock { cached in
            if cached.second == Int(now) { return cached.text }
            var local = tm()
            var buffer = [CChar](repeating: 0, count: 64)
            guard localtime_r(&now, &local) != nil else { return "<unknown>" }
            let length = strftime(&buffer, buffer.count, "%Y-%m-%dT%H:%M:%S%z", &local)
            let text = String(decoding: buffer[0..<length].map { UInt8(bitPattern: $0) }, as: UTF8.self)
            cached = (Int(now), text)
            return text
        }
    }
}

/// swift-log's handler for `BufferedLogOutput`: the stream handler's line format, batched writes.
struct BufferedLogHandler: LogHandler {
    let label: String
    let output: BufferedLogOutput
    var logLevel: Logger.Level = .info
    var metadata: Logger.Metadata = [:]
    var metadataProvider: Logger.MetadataProvider?

    subscript(metadataKey key: String) -> Logger.Metadata.Value? {
        get { metadata[key] }
        set { metadata[key] = newValue }
    }

    func log(event: LogEvent) {
        var merged = metadata
        if let provided = metadataProvider?.get() { merged.merge(provided) { $1 } }
        if let explicit = event.metadata { merged.merge(explicit) { $1 } }
        if let error = event.error {
            merged["error.message"] = "\(error)"
            merged["error.type"] = "\(String(reflecting: type(of: error)))"
        }
        let pretty = merged.isEmpty ? "" : " " + merged.sorted { $0.key < $1.key }.map { "\($0)=\($1)" }.joined(separator: " ")
        output.append(BufferedLogOutput.line(timestamp: output.timestamp(), level: event.level, label: label, metadata: pretty,
                                             source: event.source, message: event.message))
    }
}
