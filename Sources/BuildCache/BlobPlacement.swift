#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import TesseraCore

/// A checked blob about to appear under an output's name: hard-linked when the cache and the
/// output folder share a file system, copied otherwise, and renamed into place by `commit()`.
///
/// A link shares the blob's inode instead of creating one: on a warm build, creating thousands of
/// inodes (ext4 searching its inode tables) was most of the time. Tessera itself never writes a
/// file in place (every write is a new file renamed over the old), and every blob read is checked
/// against its hash, so an output edited in place by another tool only costs a miss.
struct BlobPlacement {
    private enum Staged {
        case linked(temporary: String)
        case copied(AtomicFileWriter)
        case alreadyThere
    }

    let target: String
    private let staged: Staged

    /// Stages `blob` for `target`, or nil when neither a link nor a copy could be made.
    init?(blob: String, target: String) {
        self.target = target
        if let blobFile = Self.identity(blob), blobFile == Self.identity(target) {
            // A rename onto another link of the same file would do nothing and leave the temporary.
            staged = .alreadyThere
            return
        }
        let folder = String(target[..<(target.lastIndex(of: "/") ?? target.startIndex)])
        let name = target[(target.lastIndex(of: "/").map { target.index(after: $0) } ?? target.startIndex)...]
        Self.makeFolders(folder)
        for _ in 0..<4 {
            let temporary = "\(folder)/\(AtomicFile.temporaryPrefix)\(name).\(UInt32.random(in: 0...UInt32.max))"
            if link(blob, temporary) == 0 {
                staged = .linked(temporary: temporary)
                return
            }
            if errno != EEXIST { break }
        }
        guard let writer = try? AtomicFileWriter(path: target),
              (try? BlobCopy.stream(blob) { chunk throws(TesseraError) in try writer.append(chunk) }) != nil else { return nil }
        staged = .copied(writer)
    }

    /// Renames the staged file into place; false (and nothing changed) on failure.
    func commit() -> Bool {
        switch staged {
        case .alreadyThere:
            return true
        case .linked(let temporary):
            guard rename(temporary, target) == 0 else {
                unlink(temporary)
                return false
            }
            return true
        case .copied(let writer):
            return (try? writer.commit(flushing: false)) != nil
        }
    }

    /// Abandons the staged file.
    func discard() {
        switch staged {
        case .alreadyThere: break
        case .linked(let temporary): unlink(temporary)
        case .copied(let writer): writer.discard()
        }
    }

    /// Device and inode: which file a name leads to.
    private static func identity(_ path: String) -> [UInt64]? {
        var info = stat()
        guard stat(path, &info) == 0 else { return nil }
        return [UInt64(info.st_dev), UInt64(info.st_ino)]
    }

    private static func makeFolders(_ folder: String) {
        guard !folder.isEmpty, mkdir(folder, 0o777) != 0, errno == ENOENT else { return }
        makeFolders(String(folder[..<(folder.lastIndex(of: "/") ?? folder.startIndex)]))
        mkdir(folder, 0o777)
    }
}
