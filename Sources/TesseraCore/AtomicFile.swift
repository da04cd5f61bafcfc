import Foundation
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Writes files so that a reader never sees a half-written one under the final name.
///
/// The bytes go to a hidden temporary file in the destination folder (same file system, so the
/// rename is atomic), are flushed to disk with `fsync`, and only then renamed into place. Any
/// failure, including cancellation between steps, removes the temporary file.
public enum AtomicFile {
    /// Prefix of temporary files; a crashed run can be cleaned by deleting files that start with it.
    public static let temporaryPrefix = ".tessera-tmp-"

    /// Writes `bytes` to `path`, creating intermediate folders.
    public static func write<Bytes: ContiguousBytes>(_ bytes: Bytes, to path: String) throws(TesseraError) {
        let url = URL(fileURLWithPath: path)
        let folder = url.deletingLastPathComponent().path
        do {
            try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        } catch {
            throw TesseraError(.io, file: path, reason: "cannot create folder \(folder): \(error.localizedDescription)")
        }
        var template = Array("\(folder)/\(temporaryPrefix)\(url.lastPathComponent).XXXXXX".utf8CString)
        let descriptor = template.withUnsafeMutableBufferPointer { mkstemp($0.baseAddress!) }
        guard descriptor >= 0 else {
            throw TesseraError(.io, file: path, reason: "cannot create a temporary file: \(errnoText())")
        }
        let temporaryPath = String(decoding: template.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
        var renamed = false
        defer {
            if !renamed { unlink(temporaryPath) }
        }
        let writeError: String? = bytes.withUnsafeBytes { buffer in
            var offset = 0
            while offset < buffer.count {
                let written = Glibc.write(descriptor, buffer.baseAddress! + offset, buffer.count - offset)
                if written < 0 {
                    if errno == EINTR { continue }
                    return errnoText()
                }
                offset += written
            }
            return nil
        }
        if let writeError {
            close(descriptor)
            throw TesseraError(.io, file: path, reason: "write failed: \(writeError)")
        }
        // Permissions as an ordinary created file would get (mkstemp makes 0600).
        let mask = umask(0)
        umask(mask)
        fchmod(descriptor, 0o666 & ~mask)
        if fsync(descriptor) != 0 {
            let text = errnoText()
            close(descriptor)
            throw TesseraError(.io, file: path, reason: "fsync failed: \(text)")
        }
        close(descriptor)
        guard rename(temporaryPath, path) == 0 else {
            throw TesseraError(.io, file: path, reason: "cannot rename into place: \(errnoText())")
        }
        renamed = true
    }

    private static func errnoText() -> String {
        String(cString: strerror(errno))
    }
}
