import Dispatch
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
/// so is the output folder. Symbolic links are followed, into folders too (each folder once).
struct InputTree {
    /// One line per folder (`d path`), file (`f path sha256`) or other entry (`o path`).
    let lines: [String]

    /// Nil when the tree cannot be read whole (a folder or file that cannot be opened): then no
    /// plan can be recorded or reused for it.
    init?(root: String, excluding excluded: String, hashing: any FileHashing) {
        var visited: Set<[UInt64]> = []
        let skip = Self.identity(of: excluded)
        var found: [(path: String, isFile: Bool, isFolder: Bool)] = []
        guard Self.walk(root, relative: "", skip: skip, visited: &visited, into: &found) else { return nil }
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
        lines = entries.indices.map { index in
            let entry = entries[index]
            if let hash = known[index] { return "f \(entry.path) \(hash.hex)" }
            return entry.isFolder ? "d \(entry.path)" : "o \(entry.path)"
        }
    }

    /// Depth first, each folder's names sorted by their bytes; false when a folder cannot be listed.
    private static func walk(_ folder: String, relative: String, skip: [UInt64]?, visited: inout Set<[UInt64]>,
                             into entries: inout [(path: String, isFile: Bool, isFolder: Bool)]) -> Bool {
        guard let identity = identity(of: folder), visited.insert(identity).inserted else { return true }
        guard let directory = opendir(folder) else { return false }
        var names: [String] = []
        while let entry = readdir(directory) {
            let name = withUnsafeBytes(of: entry.pointee.d_name) { raw in
                String(decoding: raw.prefix { $0 != 0 }, as: UTF8.self)
            }
            if !name.hasPrefix(".") { names.append(name) }
        }
        closedir(directory)
        for name in names.sorted(by: { $0.utf8.lexicographicallyPrecedes($1.utf8) }) {
            let path = "\(folder)/\(name)", child = relative.isEmpty ? name : "\(relative)/\(name)"
            var info = stat()
            guard stat(path, &info) == 0 else {
                // A dangling link: nothing to read, but its name is part of the tree.
                entries.append((child, false, false))
                continue
            }
            switch info.st_mode & S_IFMT {
            case S_IFDIR:
                if let skip, [UInt64(info.st_dev), UInt64(info.st_ino)] == skip { continue }
                entries.append((child, false, true))
                guard walk(path, relative: child, skip: skip, visited: &visited, into: &entries) else { return false }
            case S_IFREG:
                entries.append((child, true, false))
            default:
                entries.append((child, false, false))
            }
        }
        return true
    }

    /// Device and inode of what `path` leads to.
    private static func identity(of path: String) -> [UInt64]? {
        var info = stat()
        guard stat(path, &info) == 0 else { return nil }
        return [UInt64(info.st_dev), UInt64(info.st_ino)]
    }
}
