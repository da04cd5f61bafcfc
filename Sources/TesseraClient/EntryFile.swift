import Foundation
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

    /// Flushes to disk, then closes.
    func close() throws(TesseraError) {
        defer { _ = Foundation.close(descriptor); descriptor = -1 }
        guard fsync(descriptor) == 0 else { throw Self.failure("cannot flush", path) }
    }

    private static func failure(_ what: String, _ path: String) -> TesseraError {
        TesseraError(.io, file: path, origin: .client, reason: "\(what): \(String(cString: strerror(errno)))")
    }
}
