import Foundation
#if canImport(Glibc)
import Glibc
#endif

/// The input folder as the filesystem resolves it. Files are read only when their real path
/// (every symlink followed) stays inside it, so a catalog cannot make Tessera read `/etc/passwd`
/// through `../` or a link; excluded folders (an output folder inside the input) are never scanned.
public struct InputBoundary: Sendable {
    /// The root's real path.
    let resolvedRoot: String
    /// Real (or, when they do not exist yet, absolute) paths of folders the scan skips.
    let excluded: Set<String>

    public init(root: String, excluding: [String] = []) {
        resolvedRoot = Self.resolve(root) ?? Self.absolute(root)
        excluded = Set(excluding.map { Self.resolve($0) ?? Self.absolute($0) })
    }

    /// Whether `path` exists and its real path is the root or inside it.
    public func contains(_ path: String) -> Bool {
        guard let real = Self.resolve(path) else { return false }
        return real == resolvedRoot || real.hasPrefix(resolvedRoot == "/" ? "/" : resolvedRoot + "/")
    }

    /// Whether `path` is one of the excluded folders.
    func isExcluded(_ path: String) -> Bool {
        guard !excluded.isEmpty else { return false }
        return excluded.contains(Self.resolve(path) ?? Self.absolute(path))
    }

    /// Whether a catalog `filename` names a file in the set folder itself: no `..` component, not
    /// absolute, no NUL (the filesystem would cut the name there).
    static func isPlainName(_ filename: String) -> Bool {
        !filename.isEmpty && !filename.hasPrefix("/") && !filename.utf8.contains(0)
            && !filename.split(separator: "/", omittingEmptySubsequences: false).contains { $0 == ".." }
    }

    static func resolve(_ path: String) -> String? {
        guard let real = realpath(path, nil) else { return nil }
        defer { free(real) }
        return String(cString: real)
    }

    private static func absolute(_ path: String) -> String {
        let absolute = path.hasPrefix("/") ? path : FileManager.default.currentDirectoryPath + "/" + path
        return URL(fileURLWithPath: absolute).standardizedFileURL.path
    }

    /// Why the file at `path` cannot be read as a file, or nil when it is a regular file (links
    /// followed): a FIFO named like an image would block its reader forever, a device or socket
    /// is no image. Checked with `stat`, which never blocks.
    public static func notARegularFile(_ path: String) -> String? {
        var info = stat()
        guard stat(path, &info) == 0 else { return nil }
        switch info.st_mode & S_IFMT {
        case S_IFREG: return nil
        case S_IFIFO: return "a FIFO (named pipe), not a file; not read"
        case S_IFSOCK: return "a socket, not a file; not read"
        case S_IFCHR, S_IFBLK: return "a device, not a file; not read"
        default: return "not a regular file; not read"
        }
    }
}
