#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// A depth-first walk of a folder on `openat`/`readdir`, as `find -H` sees it: links under the
/// root are listed and never followed (a root that is itself a link is followed, as the input
/// folder someone named), a folder on another filesystem is
/// listed but not entered, and a folder that cannot be read is passed over in silence. These are
/// the rules of the `fts` walk behind Foundation's directory enumerator, which this replaces in
/// the folder reader: its per-entry `URL`s and `attributesOfItem` (a `stat` plus owner and group
/// name look-ups) were most of a no-op build's planning.
///
/// Names in a folder are visited in byte order; a folder's entries follow it directly.
public struct FolderWalk {
    public enum Kind: Equatable, Sendable {
        case folder
        case symbolicLink
        /// A regular file, or anything else that is neither a folder nor a link.
        case file
    }

    public struct Entry: Sendable {
        /// Relative to the root, `/`-separated.
        public let path: String
        /// The last component of `path`.
        public let name: String
        /// The folders above the entry, from the root down.
        public let folders: [String]
        public let kind: Kind
        /// False when the name's bytes are not UTF-8: `name` then shows U+FFFD in their place and
        /// names no file (it cannot be opened by it).
        public var hasUTF8Name = true
    }

    /// Calls `visit` for every entry under `root` (not the root itself); a folder's entries are
    /// walked only when `visit` returns true for it.
    public static func walk(root: String, visit: (Entry) -> Bool) {
        // The root is followed when it is a link: `-i Assets` where Assets links to the real
        // folder must read that folder, not nothing.
        let descriptor = open(root, O_RDONLY | O_DIRECTORY | O_CLOEXEC)
        guard descriptor >= 0 else { return }
        var status = stat()
        guard fstat(descriptor, &status) == 0 else {
            close(descriptor)
            return
        }
        walk(folder: descriptor, device: status.st_dev, prefix: "", folders: [], visit: visit)
    }

    /// Walks the open folder `descriptor` and closes it.
    private static func walk(folder descriptor: Int32, device: dev_t, prefix: String, folders: [String],
                             visit: (Entry) -> Bool) {
        guard let stream = fdopendir(descriptor) else {
            close(descriptor)
            return
        }
        defer { closedir(stream) }
        var listed: [(name: String, type: UInt8, utf8: Bool)] = []
        while let entry = readdir(stream) {
            let type = entry.pointee.d_type
            let (name, utf8) = withUnsafePointer(to: entry.pointee.d_name) {
                $0.withMemoryRebound(to: CChar.self, capacity: MemoryLayout.size(ofValue: entry.pointee.d_name)) {
                    (String(cString: $0), String(validatingCString: $0) != nil)
                }
            }
            if name == "." || name == ".." { continue }
            listed.append((name, type, utf8))
        }
        listed.sort { $0.name.utf8.lexicographicallyPrecedes($1.name.utf8) }
        for (name, type, utf8) in listed {
            var kind: Kind
            switch Int32(type) {
            case Int32(DT_DIR): kind = .folder
            case Int32(DT_LNK): kind = .symbolicLink
            case Int32(DT_UNKNOWN): kind = classify(name, in: descriptor) ?? .file
            default: kind = .file
            }
            var entry = Entry(path: prefix + name, name: name, folders: folders, kind: kind)
            entry.hasUTF8Name = utf8
            guard visit(entry), kind == .folder, utf8 else { continue }
            // A folder on another filesystem is listed but not entered, as `fts` with `FTS_XDEV`.
            var status = stat()
            guard fstatat(descriptor, name, &status, AT_SYMLINK_NOFOLLOW) == 0, (status.st_mode & S_IFMT) == S_IFDIR,
                  status.st_dev == device else { continue }
            let child = openat(descriptor, name, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC)
            guard child >= 0 else { continue }
            walk(folder: child, device: device, prefix: entry.path + "/", folders: folders + [name], visit: visit)
        }
    }

    /// The kind of a name the folder listing did not type (some filesystems leave `d_type` unknown).
    private static func classify(_ name: String, in folder: Int32) -> Kind? {
        var status = stat()
        guard fstatat(folder, name, &status, AT_SYMLINK_NOFOLLOW) == 0 else { return nil }
        switch status.st_mode & S_IFMT {
        case S_IFDIR: return .folder
        case S_IFLNK: return .symbolicLink
        default: return .file
        }
    }
}
