import Dispatch
import Slicing
import Synchronization
import TesseraCore
#if canImport(Glibc)
import Glibc
#endif

/// Everything under an input folder that planning can read: every folder and file by its path
/// relative to the root, files by their content's SHA-256 (through `FileHashing`, so an unchanged
/// file costs a `stat`), in a stable order. Two equal trees are planned alike.
///
/// It is deliberately wider than what the catalog reader uses (it keeps files of formats the reader
/// ignores), so it can only miss a plan, never reuse a stale one. Names starting with "." are left
/// out, as the reader leaves them out (and a `.git` inside the input must not be hashed every run);
/// so is the output folder. It walks as the reader does (`FolderWalk`), but follows symbolic links
/// that stay inside the input, into folders too (each folder once); a link leading outside is
/// only named, and a FIFO or device only named (never opened).
struct InputTree {
    /// One line per folder (`d path`), file (`f path sha256`) or other entry (`o path`).
    let lines: [String]
    /// Each file's path (under the root as given) by its content hash, the first in walk order.
    let files: [ContentHash: String]

    /// Nil when a file cannot be hashed: then no plan can be recorded or reused for the tree. (A
    /// folder that cannot be listed is passed over, as the reader passes over it.)
    init?(root: String, excluding excluded: String, hashing: any FileHashing) {
        var visited: Set<[UInt64]> = []
        let skip = Self.identity(of: excluded)
        var found: [(path: String, isFile: Bool, isFolder: Bool)] = []
        let boundary = InputBoundary(root: root)
        Self.walk(root, relative: "", skip: skip, boundary: boundary, visited: &visited, into: &found)
        let entries = found
        let files = entries.indices.filter { entries[$0].isFile }
        let hashes = Mutex<[Int: ContentHash]>([:])
        DispatchQueue.concurrentPerform(iterations: files.count) { index in
            let entry = files[index]
            if let hash = try? hashing.contentHash(ofFileAt: "\(root)/\(entries[entry].path)") {
                hashes.withLock { $0[entry] = hash }
            }
        }
        let known = hashes.withLock { $0 }
        guard known.count == files.count else { return nil }
        var byHash: [ContentHash: String] = [:]
        for index in files { if byHash[known[index]!] == nil { byHash[known[index]!] = "\(root)/\(entries[index].path)" } }
        self.files = byHash
        lines = entries.indices.map { index in
            let entry = entries[index]
            if let hash = known[index] { return "f \(entry.path) \(hash.hex)" }
            return entry.isFolder ? "d \(entry.path)" : "o \(entry.path)"
        }
    }

    /// The reader's own walk (`FolderWalk`: byte order, no other file systems), hidden names and
    /// the output folder left out; a link is followed here, into a folder too (each folder once),
    /// since what it leads to can be read through it.
    private static func walk(_ folder: String, relative: String, skip: [UInt64]?, boundary: InputBoundary,
                             visited: inout Set<[UInt64]>, into entries: inout [(path: String, isFile: Bool, isFolder: Bool)]) {
        guard let identity = identity(of: folder), visited.insert(identity).inserted else { return }
        var linkedFolders: [(path: String, child: String)] = []
        FolderWalk.walk(root: folder) { entry in
            guard !entry.name.hasPrefix(".") else { return false }
            let path = "\(folder)/\(entry.path)", child = relative.isEmpty ? entry.path : "\(relative)/\(entry.path)"
            // A link that leads outside the input is named, never followed: the reader refuses
            // it, and `root -> /` would otherwise make the key hash the whole machine.
            if entry.kind == .symbolicLink, !boundary.contains(path) {
                entries.append((child, false, false))
                return false
            }
            var info = stat()
            guard stat(path, &info) == 0 else {
                // A dangling link: nothing to read, but its name is part of the tree.
                entries.append((child, false, false))
                return false
            }
            switch info.st_mode & S_IFMT {
            case S_IFDIR:
                if let skip, [UInt64(info.st_dev), UInt64(info.st_ino)] == skip { return false }
                entries.append((child, false, true))
                if entry.kind == .symbolicLink { linkedFolders.append((path, child)) }
                return true
            case S_IFREG:
                entries.append((child, true, false))
            default:
                entries.append((child, false, false))
            }
            return false
        }
        for linked in linkedFolders {
            walk(linked.path, relative: linked.child, skip: skip, boundary: boundary, visited: &visited, into: &entries)
        }
    }

    /// Device and inode of what `path` leads to.
    private static func identity(of path: String) -> [UInt64]? {
        var info = stat()
        guard stat(path, &info) == 0 else { return nil }
        return [UInt64(info.st_dev), UInt64(info.st_ino)]
    }
}
