import Foundation
#if canImport(Glibc)
import Glibc
#endif

/// Streams a file into place: bytes are appended to a hidden temporary file, and only `commit()`
/// renames it to the final name. Dropping the writer without committing (an error, a cancellation)
/// deletes the temporary file, so no partial output ever appears under the final name.
public final class AtomicFileWriter {
    public let path: String
    private let temporaryPath: String
    private var descriptor: Int32
    private var finished = false

    public init(path: String) throws(TesseraError) {
        self.path = path
        let url = URL(fileURLWithPath: path)
        let folder = url.deletingLastPathComponent().path
        // Through `DurableWrites`, so that a folder made here is flushed with the file it holds.
        guard DurableWrites.makeFolders(folder) else {
            throw TesseraError(.io, file: path, reason: "cannot create folder \(folder): \(Self.errnoText())")
        }
        var template = Array("\(folder)/\(AtomicFile.temporaryStem(for: path)).XXXXXX".utf8CString)
        descriptor = template.withUnsafeMutableBufferPointer { mkstemp($0.baseAddress!) }
        guard descriptor >= 0 else {
            throw TesseraError(.io, file: path, reason: "cannot create a temporary file: \(Self.errnoText())")
        }
        temporaryPath = String(decoding: template.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
    }

    deinit {
        if !finished { discard() }
    }

    /// Appends bytes to the temporary file.
    public func append<Bytes: ContiguousBytes>(_ bytes: Bytes) throws(TesseraError) {
        precondition(!finished, "append after commit or discard")
        let failure: String? = bytes.withUnsafeBytes { buffer in
            var offset = 0
            while offset < buffer.count {
                let written = Glibc.write(descriptor, buffer.baseAddress! + offset, buffer.count - offset)
                if written < 0 {
                    if errno == EINTR { continue }
                    return Self.errnoText()
                }
                offset += written
            }
            return nil
        }
        if let failure { throw TesseraError(.io, file: path, reason: "write failed: \(failure)") }
    }

    /// Flushes the bytes to disk and renames the file into place.
    ///
    /// `flushing: false` skips the `fsync`, for callers that write many files and flush them
    /// together afterwards: the file is recorded in `DurableWrites`, whose `flush(under:)` makes it
    /// and its folder durable. The rename is still atomic for every reader; only a power cut
    /// before that flush can leave the file empty.
    ///
    /// `permissions` replaces the usual `0666` less the umask: a private key is `0o600`, and
    /// since `mkstemp` makes the temporary file `0600`, it is never readable by others meanwhile.
    public func commit(flushing: Bool = true, permissions: mode_t? = nil) throws(TesseraError) {
        precondition(!finished, "commit twice")
        fchmod(descriptor, permissions ?? (0o666 & ~Self.creationMask))
        if flushing, fsync(descriptor) != 0 {
            let text = Self.errnoText()
            discard()
            throw TesseraError(.io, file: path, reason: "fsync failed: \(text)")
        }
        close(descriptor)
        guard rename(temporaryPath, path) == 0 else {
            let text = Self.errnoText()
            unlink(temporaryPath)
            finished = true
            throw TesseraError(.io, file: path, reason: "cannot rename into place: \(text)")
        }
        finished = true
        if !flushing { DurableWrites.placed(path) }
        OutputLedger.record(path)
    }

    /// Abandons the file: nothing appears under the final name.
    public func discard() {
        guard !finished else { return }
        close(descriptor)
        unlink(temporaryPath)
        finished = true
    }

    /// The process's umask, read once. Linux shows it in /proc; elsewhere reading it means setting
    /// it, and a file another thread created in between would get no mask at all.
    private static let creationMask: mode_t = {
        if let status = try? String(contentsOfFile: "/proc/self/status", encoding: .utf8),
           let line = status.split(separator: "\n").first(where: { $0.hasPrefix("Umask:") }),
           let mask = mode_t(line.dropFirst("Umask:".count).trimmingCharacters(in: .whitespaces), radix: 8) {
            return mask
        }
        let mask = umask(0)
        umask(mask)
        return mask
    }()

    private static func errnoText() -> String {
        String(cString: strerror(errno))
    }
}
