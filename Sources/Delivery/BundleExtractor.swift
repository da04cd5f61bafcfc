import Foundation
import TesseraCore

/// Extracts a whole bundle into a new folder, or nothing at all.
///
/// Entries are streamed (bounded memory whatever their size) into a hidden temporary folder beside
/// the destination, each checked against the index's size and SHA-256 before it is kept; the
/// folder is renamed into place only when every entry is there. `BundleFile` has already checked
/// names, ranges and overlaps, so `BundleVerifier` runs these same checks without writing.
public enum BundleExtractor {
    /// Extracts every entry of `bundle` into `folder`, which must not exist; returns the entry count.
    @discardableResult
    public static func extract(_ bundle: BundleFile, into folder: String) throws(TesseraError) -> Int {
        let files = FileManager.default
        guard !files.fileExists(atPath: folder) else {
            throw TesseraError(.configuration, file: folder, origin: .bundle, reason: "the folder already exists")
        }
        let parent = (folder as NSString).deletingLastPathComponent
        let temporary = "\(parent.isEmpty ? "." : parent)/\(AtomicFile.temporaryPrefix)\(UUID().uuidString)"
        do {
            // Created up front, so an empty bundle gives an empty folder.
            try files.createDirectory(atPath: temporary, withIntermediateDirectories: true)
        } catch {
            throw TesseraError(.io, file: folder, origin: .bundle, reason: "cannot create a temporary folder: \(error.localizedDescription)")
        }
        defer { try? files.removeItem(atPath: temporary) }
        for entry in bundle.index.entries {
            let target = "\(temporary)/\(entry.name)"
            let folder = (target as NSString).deletingLastPathComponent
            do {
                try files.createDirectory(atPath: folder, withIntermediateDirectories: true)
            } catch {
                throw TesseraError(.io, file: bundle.path, origin: .bundle,
                                   reason: "cannot create the folder for '\(entry.name)': \(error.localizedDescription)")
            }
            // The whole folder is renamed into place at the end, so each file is written in place
            // (no per-file temporary name that a 255-byte component could push past NAME_MAX).
            let file = try NewFile(path: target, entry: entry.name, bundle: bundle.path)
            try bundle.read(entry) { (piece) throws(TesseraError) in try file.append(piece) }
            try file.close()
        }
        do {
            try files.moveItem(atPath: temporary, toPath: folder)
        } catch {
            throw TesseraError(.io, file: folder, origin: .bundle, reason: "cannot rename into place: \(error.localizedDescription)")
        }
        return bundle.index.entries.count
    }
}

/// A file created for one entry; creation fails if anything already has its name, so the index
/// has no colliding names, but a file system may fold names in ways no rule foresees: never let a
/// second entry replace a first, and never follow a link.
private final class NewFile {
    private var descriptor: Int32
    private let entry: String
    private let bundle: String

    init(path: String, entry: String, bundle: String) throws(TesseraError) {
        self.entry = entry
        self.bundle = bundle
        descriptor = open(path, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0o666)
        guard descriptor >= 0 else {
            throw errno == EEXIST
                ? TesseraError(.invalidInput, file: bundle, origin: .bundle, reason: "entry '\(entry)' lands on a file or folder an earlier entry wrote")
                : Self.failure("cannot create", entry: entry, bundle: bundle)
        }
    }

    deinit { if descriptor >= 0 { _ = Foundation.close(descriptor) } }

    func append(_ bytes: UnsafeRawBufferPointer) throws(TesseraError) {
        var offset = 0
        while offset < bytes.count {
            let written = write(descriptor, bytes.baseAddress! + offset, bytes.count - offset)
            if written < 0 {
                if errno == EINTR { continue }
                throw Self.failure("cannot write", entry: entry, bundle: bundle)
            }
            offset += written
        }
    }

    /// Flushes to disk before the folder is renamed into place, then closes.
    func close() throws(TesseraError) {
        defer { _ = Foundation.close(descriptor); descriptor = -1 }
        guard fsync(descriptor) == 0 else { throw Self.failure("cannot flush", entry: entry, bundle: bundle) }
    }

    private static func failure(_ what: String, entry: String, bundle: String) -> TesseraError {
        TesseraError(.io, file: bundle, origin: .bundle, reason: "\(what) '\(entry)': \(String(cString: strerror(errno)))")
    }
}
