#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import Logging
import Synchronization

/// Where `tessera serve` writes its log: whoever logs a line writes out every pending line,
/// unless another thread is writing already, in which case that thread writes this line too
/// before it lets go. A quiet server writes each line at once; a busy one writes many lines per
/// `write` without any line waiting for a timer.
///
/// swift-log's stream handler makes one unbuffered `write` per line (about 3% of a query's CPU
/// time under load, by `perf`), with every request thread queueing on one lock for it. Lines and
/// their format are the same; the time stamp is formatted once a second.
public final class BufferedLogOutput: Sendable {
    private let descriptor: Int32
    private let pending = Mutex<[UInt8]>([])
    /// Held by the one thread writing; batches reach the descriptor in order.
    private let writing = Mutex<Void>(())
    private let clock = Mutex<(second: Int, text: String)>((-1, ""))

    public init(descriptor: Int32 = 2) { self.descriptor = descriptor }

    /// A logger writing here in swift-log's stream format.
    public func logger(label: String) -> Logger {
        Logger(label: label) { label in BufferedLogHandler(label: label, output: self) }
    }

    func append(_ line: String) {
        pending.withLock { $0.append(contentsOf: line.utf8) }
        // A thread that finds the writer busy leaves its line to it; the writer looks again after
        // letting go, so a line added just then is not left behind.
        repeat {
            guard writing.withLockIfAvailable({ _ in writePending() }) != nil else { return }
        } while pending.withLock { !$0.isEmpty }
    }

    /// Writes out every line logged so far, waiting for a write in progress.
    public func flush() {
        writing.withLock { _ in writePending() }
    }

    /// Called with `writing` held.
    private func writePending() {
        while true {
            let batch = pending.withLock { bytes in
                let taken = bytes
                bytes.removeAll(keepingCapacity: true)
                return taken
            }
            if batch.isEmpty { return }
            var done = 0
            while done < batch.count {
                let count = batch.withUnsafeBytes { write(descriptor, $0.baseAddress! + done, $0.count - done) }
                if count < 0 && errno == EINTR { continue }
                if count <= 0 { break }  // nowhere to log to; dropping lines beats stopping the server
                done += count
            }
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
        output.append("\(output.timestamp()) \(event.level) \(label):\(pretty) [\(event.source)] \(event.message)\n")
    }
}
