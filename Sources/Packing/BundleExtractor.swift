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
            throw TesseraError(.configuration, file: folder, stage: "bundle", reason: "the folder already exists")
        }
        let parent = (folder as NSString).deletingLastPathComponent
        let temporary = "\(parent.isEmpty ? "." : parent)/\(AtomicFile.temporaryPrefix)\(UUID().uuidString)"
        do {
            // Created up front, so an empty bundle gives an empty folder.
            try files.createDirectory(atPath: temporary, withIntermediateDirectories: true)
        } catch {
            throw TesseraError(.io, file: folder, stage: "bundle", reason: "cannot create a temporary folder: \(error.localizedDescription)")
        }
        defer { try? files.removeItem(atPath: temporary) }
        for entry in bundle.index.entries {
            let target = "\(temporary)/\(entry.name)"
            // The index has no colliding names, but a file system may fold names in ways no rule
            // foresees: never let a second entry replace a first.
            var status = stat()
            guard lstat(target, &status) != 0 else {
                throw TesseraError(.invalidInput, file: bundle.path, stage: "bundle",
                                   reason: "entry '\(entry.name)' lands on a file an earlier entry wrote")
            }
            let writer = try AtomicFileWriter(path: target)
            try bundle.read(entry) { (piece) throws(TesseraError) in try writer.append(piece) }
            try writer.commit()
        }
        do {
            try files.moveItem(atPath: temporary, toPath: folder)
        } catch {
            throw TesseraError(.io, file: folder, stage: "bundle", reason: "cannot rename into place: \(error.localizedDescription)")
        }
        return bundle.index.entries.count
    }
}
