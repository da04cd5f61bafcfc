import Foundation

/// Writes whole files so that a reader never sees a half-written one under the final name.
///
/// The bytes go to a hidden temporary file in the destination folder (same file system, so the
/// rename is atomic), are flushed with `fsync`, and only then renamed into place. Any failure
/// removes the temporary file. `AtomicFileWriter` does the same for output produced in pieces.
public enum AtomicFile {
    /// Prefix of temporary files; a crashed run can be cleaned by deleting files that start with it.
    public static let temporaryPrefix = ".tessera-tmp-"

    /// Writes `bytes` to `path`, creating intermediate folders. `flushing: false` leaves the
    /// flush to one `FileSystemFlush` after a run's many files (`AtomicFileWriter.commit(flushing:)`).
    public static func write<Bytes: ContiguousBytes>(_ bytes: Bytes, to path: String,
                                                     flushing: Bool = true) throws(TesseraError) {
        let writer = try AtomicFileWriter(path: path)
        try writer.append(bytes)
        try writer.commit(flushing: flushing)
    }
}
