import Foundation

/// Writes whole files so that a reader never sees a half-written one under the final name.
///
/// The bytes go to a hidden temporary file in the destination folder (same file system, so the
/// rename is atomic), are flushed with `fsync`, and only then renamed into place. Any failure
/// removes the temporary file. `AtomicFileWriter` does the same for output produced in pieces.
public enum AtomicFile {
    /// Prefix of temporary files; a crashed run can be cleaned by deleting files that start with it.
    public static let temporaryPrefix = ".tessera-tmp-"

    /// A fresh temporary name beside `path` of the shape `AtomicFileWriter`'s `mkstemp` gives
    /// (`.tessera-tmp-<name>.<6 letters or digits>`), for a file made by other means (a link), so
    /// that one left by a killed run is recognised and removed (`StaleTemporaryFiles`).
    public static func temporaryPath(for path: String) -> String {
        let folder = (path as NSString).deletingLastPathComponent
        let letters = Array("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789")
        let suffix = String((0..<6).map { _ in letters.randomElement()! })
        return "\(folder)/\(temporaryStem(for: path)).\(suffix)"
    }

    /// `.tessera-tmp-<name>`, the final name cut (on a character boundary) so that the stem and
    /// a `.XXXXXX` suffix fit in one file name (255 bytes) wherever the final name fits.
    public static func temporaryStem(for path: String) -> String {
        let name = (path as NSString).lastPathComponent
        let room = 255 - temporaryPrefix.utf8.count - 7
        var kept = ""
        for character in name {
            guard kept.utf8.count + String(character).utf8.count <= room else { break }
            kept.append(character)
        }
        return temporaryPrefix + kept
    }

    /// Writes `bytes` to `path`, creating intermediate folders. `flushing: false` leaves the
    /// flush to `DurableWrites.flush(under:)` after a run's many files (`AtomicFileWriter.commit(flushing:)`).
    /// `permissions`: see `AtomicFileWriter.commit(flushing:permissions:)`.
    public static func write<Bytes: ContiguousBytes>(_ bytes: Bytes, to path: String,
                                                     flushing: Bool = true, permissions: mode_t? = nil) throws(TesseraError) {
        let writer = try AtomicFileWriter(path: path)
        try writer.append(bytes)
        try writer.commit(flushing: flushing, permissions: permissions)
    }
}
