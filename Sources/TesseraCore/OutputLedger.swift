import Foundation
import Synchronization

/// The files a build puts in its output folder, as it puts them: every file Tessera writes
/// (`AtomicFileWriter`), restores from the cache or finds already right is recorded while the
/// folder is open, so at the end of the build what an earlier build left and this one did not
/// make can be told apart and removed (`OutputInventory`).
///
/// Process-wide because files are written from every stage and the cache; only paths under an
/// open folder are kept, so a long-lived process (`tessera serve`) records nothing.
public enum OutputLedger {
    private static let state = Mutex<[String: Set<String>]>([:])

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
            for root in folders.keys where file.hasPrefix(root + "/") {
                folders[root]!.insert(String(file.dropFirst(root.count + 1)))
            }
        }
    }

    /// Stops recording under `folder`; returns what was recorded, relative to it.
    public static func close(_ folder: String) -> Set<String> {
        let root = absolute(folder)
        return state.withLock { $0.removeValue(forKey: root) } ?? []
    }

    static func absolute(_ path: String) -> String {
        var made = path.hasPrefix("/") ? path : FileManager.default.currentDirectoryPath + "/" + path
        while made.count > 1, made.hasSuffix("/") { made.removeLast() }
        return (made as NSString).standardizingPath
    }
}
