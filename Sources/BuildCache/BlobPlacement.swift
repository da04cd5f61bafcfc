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
        /// The store's blob itself, moved to the target at commit through the run's `LentBlobs`
        /// (which records where the bytes went, under the lock its readers take).
        case moved(blob: String, hash: ContentHash, ledger: LentBlobs)
    }

    let target: String
    private let staged: Staged

    /// Stages a copy of the open file `source` (a blob, or the output a blob moved into) for
    /// `target`, or nil when no copy could be made. An open file, not a path: the path of a blob
    /// this run lent may be renamed away before the copy starts.
    init?(source: Int32, target: String) {
        self.target = target
        let folder = String(target[..<(target.lastIndex(of: "/") ?? target.startIndex)])
        DurableWrites.makeFolders(folder)
        // Named as `AtomicFileWriter` names its files, so a run killed before the rename leaves
        // a file the next run recognises and removes (`StaleTemporaryFiles`).
        var template = Array("\(folder)/\(AtomicFile.temporaryStem(for: target)).XXXXXX".utf8CString)
        let descriptor = template.withUnsafeMutableBufferPointer { mkstemp($0.baseAddress!) }
        if descriptor >= 0 {
            let temporary = String(decoding: template.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
            fchmod(descriptor, 0o644)
            let filled = FileClone.fill(descriptor, fromOpen: source)
            close(descriptor)
            if filled {
                staged = .cloned(temporary: temporary)
                return
            }
            unlink(temporary)
        }
        guard let writer = try? AtomicFileWriter(path: target), Self.stream(source, into: writer) else { return nil }
        staged = .copied(writer)
    }

    /// Stages `blob` itself for `target`: at commit the store's file is renamed to the target, so
    /// the output is its only name (`LentBlobs`). Nil when the two are on different file systems.
    init?(moving blob: String, hash: ContentHash, target: String, ledger: LentBlobs) {
        self.target = target
        let folder = String(target[..<(target.lastIndex(of: "/") ?? target.startIndex)])
        DurableWrites.makeFolders(folder)
        var blobInfo = stat(), folderInfo = stat()
        guard stat(blob, &blobInfo) == 0, stat(folder, &folderInfo) == 0, blobInfo.st_dev == folderInfo.st_dev else { return nil }
        staged = .moved(blob: blob, hash: hash, ledger: ledger)
    }

    /// Renames the staged file into place; false (and nothing changed) on failure.
    func commit() -> Bool {
        switch staged {
        case .moved(let blob, let hash, let ledger):
            if ledger.move(hash, from: blob, to: target) {
                // Unflushed, as every restored file: `BuildCache.finishRun` flushes the record.
                DurableWrites.placed(target)
                OutputLedger.record(target)
                return true
            }
            // A job of this run stored the blob since it was taken (it stays in the store), or
            // the rename failed: the output gets a copy instead.
            guard let source = ledger.open(hash, store: blob) else { return false }
            defer { close(source.descriptor) }
            return BlobPlacement(source: source.descriptor, target: target)?.commit() ?? false
        case .cloned(let temporary):
            guard rename(temporary, target) == 0 else {
                unlink(temporary)
                return false
            }
            DurableWrites.placed(target)
            OutputLedger.record(target)
            return true
        case .copied(let writer):
            return (try? writer.commit(flushing: false)) != nil
        }
    }

    /// Whether the blob itself was to move (and so must be copied back into the store, or given
    /// back when the move did not happen).
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

    /// Copies the open file `source` from its start into `writer` (where cloning and `sendfile`
    /// could not), with `pread`, leaving the descriptor's offset alone.
    private static func stream(_ source: Int32, into writer: AtomicFileWriter) -> Bool {
        var buffer = [UInt8](repeating: 0, count: 1 << 16)
        var offset = off_t(0)
        while true {
            let count = buffer.withUnsafeMutableBytes { pread(source, $0.baseAddress!, $0.count, offset) }
            if count < 0, errno == EINTR { continue }
            guard count >= 0 else { return false }
            if count == 0 { return true }
            guard (try? writer.append(Array(buffer[0..<count]))) != nil else { return false }
            offset += off_t(count)
        }
    }
}
