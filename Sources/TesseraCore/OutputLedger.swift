import Foundation

/// The files a build puts in its output folder, as it puts them: every file Tessera writes
/// (`AtomicFileWriter`), restores from the cache or finds already right is recorded while the
/// folder is open, so at the end of the build what an earlier build left and this one did not
/// make can be told apart and removed (`OutputInventory`).
///
/// Process-wide because files are written from every stage and the cache; only paths under an
/// open folder are kept, so a long-lived process (`tessera serve`) records nothing.
///
/// An `NSLock`, not `Synchronization.Mutex`: this module is in `TesseraClient`'s dependencies,
/// and Mutex needs iOS 18 / macOS 15, which would set the client's floor.
public enum OutputLedger {
    private static let state = LockedFolders()

    private final class LockedFolders: @unchecked Sendable {
        private let lock = NSLock()
        private var folders: [String: Set<String>] = [:]

        func withLock<Result>(_ body: (inout [String: Set<String>]) -> Result) -> Result {
            lock.lock()
            defer { lock.unlock() }
            return body(&folders)
        }
    }

    /// Starts recording the files put under `folder`.
    public static func open(_ folder: String) {
        let root = absolute(folder)
        state.withLock { $0[root] = [] }
    }

    /// Records that `path` was written, restored or found right; ignored unless under an open folder.
    public static func record(_ path: String) {
        let file = absolute(path)
        state.withLock { folders in
            guard !folders.isEmpty else { return }
            // Through the index, so the set is changed in place: `folders[root]!.insert` copied
            // the whole set on every call, quadratic in the files of a build.
            var index = folders.startIndex
            while index != folders.endIndex {
                let root = folders.keys[index]
                if file.hasPrefix(root + "/") { folders.values[index].insert(String(file.dropFirst(root.count + 1))) }
                index = folders.index(after: index)
            }
        }
    }

    /// Stops recording under `folder`; returns what was recorded, relative to it.
    public static func close(_ folder: String) -> Set<String> {
        let root = absolute(folder)
        return state.withLock { $0.removeValue(forKey: root) } ?? []
    }

    /// `path` made absolute and free of `.`, `..` and repeated slashes, by text alone (links are
    /// not resolved: the ledger compares paths as the build wrote them). Foundation's
    /// `standardizingPath` cost more than the copies themselves when thousands of files were restored.
    static func absolute(_ path: String) -> String {
        let joined = path.hasPrefix("/") ? path : FileManager.default.currentDirectoryPath + "/" + path
        var parts: [Substring] = []
        for part in joined.split(separator: "/", omittingEmptySubsequences: true) {
            switch part {
            case ".": continue
            case "..": _ = parts.popLast()
            default: parts.append(part)
            }
        }
        return "/" + parts.joined(separator: "/")
    }
}
