#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import TesseraCore

/// A checked blob about to appear under an output's name: a file of its own (`FileClone`:
/// copy-on-write where the file system has it, else a kernel copy), renamed into place by
/// `commit()`. Outputs never share an inode with the cache or another build folder (they did, as
/// hard links, until issue 38): a tool that edits an output in place changes that file alone.
struct BlobPlacement {
    private enum Staged {
        /// A copy of the blob beside the target, to be renamed over it.
        case cloned(temporary: String)
        case copied(AtomicFileWriter)
        /// The blob itself, renamed to the target at commit.
        case moved(blob: String)
    }

    let target: String
    private let staged: Staged

    /// Stages `blob` for `target`, or nil when no copy could be made.
    init?(blob: String, target: String) {
        self.target = target
        let folder = String(target[..<(target.lastIndex(of: "/") ?? target.startIndex)])
        Self.makeFolders(folder)
        // Named as `AtomicFileWriter` names its files, so a run killed before the rename leaves
        // a file the next run recognises and removes (`StaleTemporaryFiles`).
        var template = Array("\(folder)/\(AtomicFile.temporaryStem(for: target)).XXXXXX".utf8CString)
        let descriptor = template.withUnsafeMutableBufferPointer { mkstemp($0.baseAddress!) }
        if descriptor >= 0 {
            let temporary = String(decoding: template.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
            fchmod(descriptor, 0o644)
            let filled = FileClone.fill(descriptor, from: blob)
            close(descriptor)
            if filled {
                staged = .cloned(temporary: temporary)
                return
            }
            unlink(temporary)
        }
        guard let writer = try? AtomicFileWriter(path: target),
              (try? BlobCopy.stream(blob) { chunk throws(TesseraError) in try writer.append(chunk) }) != nil else { return nil }
        staged = .copied(writer)
    }

    /// Stages `blob` itself for `target`: at commit the store's file is renamed to the target, so
    /// the output is its only name (`LentBlobs`). Nil when the two are on different file systems.
    init?(moving blob: String, target: String) {
        self.target = target
        let folder = String(target[..<(target.lastIndex(of: "/") ?? target.startIndex)])
        Self.makeFolders(folder)
        var blobInfo = stat(), folderInfo = stat()
        guard stat(blob, &blobInfo) == 0, stat(folder, &folderInfo) == 0, blobInfo.st_dev == folderInfo.st_dev else { return nil }
        staged = .moved(blob: blob)
    }

    /// Renames the staged file into place; false (and nothing changed) on failure.
    func commit() -> Bool {
        switch staged {
        case .moved(let blob):
            guard rename(blob, target) == 0 else { return false }
            OutputLedger.record(target)
            return true
        case .cloned(let temporary):
            guard rename(temporary, target) == 0 else {
                unlink(temporary)
                return false
            }
            OutputLedger.record(target)
            return true
        case .copied(let writer):
            return (try? writer.commit(flushing: false)) != nil
        }
    }

    /// Whether the blob itself was moved (and so must be copied back into the store).
    var movedBlob: Bool {
        if case .moved = staged { return true }
        return false
    }

    /// Abandons the staged file.
    func discard() {
        switch staged {
        case .cloned(let temporary): unlink(temporary)
        case .moved: break
        case .copied(let writer): writer.discard()
        }
    }

    private static func makeFolders(_ folder: String) {
        guard !folder.isEmpty, mkdir(folder, 0o777) != 0, errno == ENOENT else { return }
        makeFolders(String(folder[..<(folder.lastIndex(of: "/") ?? folder.startIndex)]))
        mkdir(folder, 0o777)
    }
}
