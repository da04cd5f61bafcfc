import Foundation
import TesseraCore
#if canImport(Glibc)
import Glibc
#endif

/// What a build's output folder holds, so that it holds exactly one build: each build lists the
/// files it put there (`OutputLedger`) in `.tessera-outputs`, and removes, once it is complete,
/// every file the previous list names that it did not put there itself — variants of a removed
/// asset, bundles of another tag set, a size report the pipeline no longer makes. A file no
/// build listed is never touched; a non-empty folder no Tessera build wrote is refused unless the
/// run is told to use it anyway (`--force`), and even then nothing in it is removed.
enum OutputInventory {
    static let fileName = ".tessera-outputs"

    /// The files the previous build listed, relative to the folder; nil when there is no list.
    static func previous(in folder: String) -> [String]? {
        guard let data = FileManager.default.contents(atPath: "\(folder)/\(fileName)"),
              let list = try? JSONDecoder().decode([String].self, from: data) else { return nil }
        return list
    }

    /// Throws a configuration error when `folder` has files but nothing says a Tessera build wrote
    /// them: no list, no `manifest.json`, no `report.json` (what an earlier Tessera left).
    static func checkUsable(_ folder: String, force: Bool) throws(TesseraError) {
        guard !force, let names = try? FileManager.default.contentsOfDirectory(atPath: folder) else { return }
        let marks = [fileName, "manifest.json", "report.json"]
        guard !names.contains(where: marks.contains),
              !names.contains(where: { $0.hasPrefix("shard-") && $0.hasSuffix(".json") }) else { return }
        // Hidden files alone (a Finder `.DS_Store`, a `.gitkeep`) leave a folder empty enough.
        let visible = names.filter { !$0.hasPrefix(".") }.sorted()
        guard let first = visible.first else { return }
        throw TesseraError(.configuration, file: folder,
                           reason: "the output folder is not empty and no Tessera build wrote it (\(visible.count) entries, e.g. '\(first)'); choose an empty or new folder, or pass --force to write into it (nothing of its own is removed)")
    }

    /// Removes what the previous build listed and this one did not put there, then lists this
    /// build's files; returns the paths removed.
    @discardableResult
    static func finish(_ folder: String, produced: Set<String>) -> [String] {
        var removed: [String] = []
        for path in previous(in: folder) ?? [] where !produced.contains(path) && isInside(path) {
            let full = "\(folder)/\(path)"
            var status = stat()
            // Only a regular file is removed: never a folder, never what a link points to.
            guard lstat(full, &status) == 0, status.st_mode & S_IFMT == S_IFREG, unlink(full) == 0 else { continue }
            removed.append(full)
            removeEmptyFolders(from: (path as NSString).deletingLastPathComponent, under: folder)
        }
        let list = produced.filter { $0 != fileName }.sorted()
        try? AtomicFile.write(Array((try? JSONEncoder().encode(list)) ?? Data("[]".utf8)), to: "\(folder)/\(fileName)", flushing: false)
        return removed
    }

    /// A relative path that stays inside the folder (a damaged or hand-edited list cannot reach out).
    private static func isInside(_ path: String) -> Bool {
        !path.isEmpty && !path.hasPrefix("/") && !path.split(separator: "/").contains { $0 == ".." || $0 == "." }
    }

    private static func removeEmptyFolders(from relative: String, under folder: String) {
        var current = relative
        while !current.isEmpty, current != ".", rmdir("\(folder)/\(current)") == 0 {
            current = (current as NSString).deletingLastPathComponent
        }
    }
}
