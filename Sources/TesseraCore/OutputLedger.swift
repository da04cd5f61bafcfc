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
        private var folders: [String: PackedPaths] = [:]

        func withLock<Result>(_ body: (inout [String: PackedPaths]) -> Result) -> Result {
            lock.lock()
            defer { lock.unlock() }
            return body(&folders)
        }
    }

    /// The paths recorded under one folder, packed end to end (each ended by a NUL) in buffers of
    /// a megabyte, and told apart from repeats only when the folder is closed. A `Set<String>` held
    /// each path as a string of its own, about 120 bytes with its bucket, allocated by whichever
    /// job wrote the file and kept to the end of the build among the pages freed jobs leave: 72 MB
    /// for the 600,000 files of 100,000 tiny masters (issue 54, item 14). Packed they are about
    /// 45 bytes each, in a few large buffers of their own.
    struct PackedPaths {
        /// Bytes in each buffer: large enough to be mapped alone, outside the small-object heaps.
        static let chunk = 1 << 20
        private var buffers: [[UInt8]] = []

        mutating func append(_ path: Substring) {
            let bytes = path.utf8.count + 1
            if buffers.isEmpty || buffers[buffers.count - 1].count + bytes > buffers[buffers.count - 1].capacity {
                var buffer: [UInt8] = []
                buffer.reserveCapacity(max(Self.chunk, bytes))
                buffers.append(buffer)
            }
            buffers[buffers.count - 1].append(contentsOf: path.utf8)
            buffers[buffers.count - 1].append(0)
        }

        /// Every path recorded, each once.
        var paths: Set<String> {
            var paths: Set<String> = []
            for buffer in buffers {
                for name in buffer.split(separator: 0, omittingEmptySubsequences: true) {
                    paths.insert(String(decoding: name, as: UTF8.self))
                }
            }
            return paths
        }
    }

    /// Starts recording the files put under `folder`.
    public static func open(_ folder: String) {
        let root = absolute(folder)
        state.withLock { $0[root] = PackedPaths() }
    }

    /// Records that `path` was written, restored or found right; ignored unless under an open folder.
    public static func record(_ path: String) {
        let file = absolute(path)
        state.withLock { folders in
            guard !folders.isEmpty else { return }
            // Through the index, so the record is changed in place: `folders[root]!.insert` copied
            // the whole record (then a set) on every call, quadratic in the files of a build.
            var index = folders.startIndex
            while index != folders.endIndex {
                let root = folders.keys[index]
                if file.hasPrefix(root + "/") { folders.values[index].append(file.dropFirst(root.count + 1)) }
                index = folders.index(after: index)
            }
        }
    }

    /// Stops recording under `folder`; returns what was recorded, relative to it.
    public static func close(_ folder: String) -> Set<String> {
        let root = absolute(folder)
        return state.withLock { $0.removeValue(forKey: root) }?.paths ?? []
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
