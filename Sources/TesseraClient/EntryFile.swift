import Foundation
import Synchronization
import TesseraCore

/// A file of a bundle folder being assembled (or an object being decoded), written in place:
/// created only if nothing has its name, never through a link, and flushed before the folder
/// holding it is renamed into the store, as `BundleExtractor` writes an unpacked entry.
final class EntryFile {
    private var descriptor: Int32
    let path: String

    init(creating path: String) throws(TesseraError) {
        self.path = path
        // 0o666 less the umask: the mode an unpacked bundle's files get, so an updated bundle's
        // folder is the same as a fresh install's.
        descriptor = open(path, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0o666)
        guard descriptor >= 0 else { throw Self.failure("cannot create", path) }
    }

    deinit { if descriptor >= 0 { _ = Foundation.close(descriptor) } }

    func append(_ bytes: UnsafeRawBufferPointer) throws(TesseraError) {
        var offset = 0
        while offset < bytes.count {
            let written = write(descriptor, bytes.baseAddress! + offset, bytes.count - offset)
            if written < 0 {
                if errno == EINTR { continue }
                throw Self.failure("cannot write", path)
            }
            offset += written
        }
    }

    /// Flushes to disk (unless `flushing` is false: the caller flushes it later, `flush(_:)`), then closes.
    func close(flushing: Bool = true) throws(TesseraError) {
        defer { _ = Foundation.close(descriptor); descriptor = -1 }
        guard !flushing || fsync(descriptor) == 0 else { throw Self.failure("cannot flush", path) }
    }

    /// Flushes the files at `paths` to disk, several at once. One `fsync` after another, a folder
    /// of 250 entries waited for 250 device cache flushes in turn, most of an update's time on a
    /// busy disk (`Benchmarks/updates.sh`, G4); flushes issued together are merged by the block
    /// layer, and each file is still on disk when this returns, as `close()` leaves it.
    static func flush(_ paths: [String], concurrently width: Int = 16) throws(TesseraError) {
        let lanes = min(width, paths.count)
        let failure = FirstFailure()
        let done = DispatchGroup()
        // Threads of their own, not the cooperative pool's two: each spends its time waiting on the disk.
        for lane in 0..<lanes {
            done.enter()
            Thread {
                for index in stride(from: lane, to: paths.count, by: lanes) {
                    let descriptor = open(paths[index], O_RDONLY | O_NOFOLLOW | O_CLOEXEC)
                    if descriptor < 0 || fsync(descriptor) != 0 { failure.keep(Self.failure("cannot flush", paths[index])) }
                    if descriptor >= 0 { _ = Foundation.close(descriptor) }
                }
                done.leave()
            }.start()
        }
        done.wait()
        if let error = failure.first { throw error }
    }

    /// The first of the errors of several threads.
    private final class FirstFailure: Sendable {
        private let error = Mutex<TesseraError?>(nil)
        var first: TesseraError? { error.withLock { $0 } }
        func keep(_ failure: TesseraError) { error.withLock { $0 = $0 ?? failure } }
    }

    private static func failure(_ what: String, _ path: String) -> TesseraError {
        TesseraError(.io, file: path, origin: .client, reason: "\(what): \(String(cString: strerror(errno)))")
    }
}
