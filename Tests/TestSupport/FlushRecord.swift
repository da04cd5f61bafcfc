import Synchronization
import TesseraCore

/// Paths a test's flusher was handed, in order; it flushes nothing itself.
public final class FlushRecord: Sendable {
    public let files = Mutex<[String]>([])
    public let folders = Mutex<[String]>([])

    public init() {}

    public var flusher: DurableWrites.Flusher {
        DurableWrites.Flusher(files: { paths in self.files.withLock { $0 += paths }; return true },
                              folder: { path in self.folders.withLock { $0.append(path) }; return true })
    }
}
