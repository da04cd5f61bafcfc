import Foundation

/// Where a build's folders are, relative to its checkout: the nearest folder above the input
/// folder holding `.git` (or `$TESSERA_WORKSPACE`), else the current directory. A plan record
/// keyed by these relative paths serves a second checkout at another absolute path (a CI
/// runner's `/builds/…/project` and a laptop's `~/src/project`) as it serves the first.
struct WorkspaceRoot {
    let path: String

    init(input: String, environment: [String: String] = ProcessInfo.processInfo.environment) {
        if let named = environment["TESSERA_WORKSPACE"], !named.isEmpty {
            path = Self.absolute(named)
            return
        }
        var folder = URL(fileURLWithPath: Self.absolute(input))
        while folder.path != "/" {
            if FileManager.default.fileExists(atPath: folder.appendingPathComponent(".git").path) {
                path = folder.path
                return
            }
            folder.deleteLastPathComponent()
        }
        path = FileManager.default.currentDirectoryPath
    }

    /// `folder` relative to the root (`Samples`, `.` for the root); as given when outside it.
    func relative(_ folder: String) -> String {
        let full = Self.absolute(folder)
        if full == path { return "." }
        return full.hasPrefix(path + "/") ? String(full.dropFirst(path.count + 1)) : folder
    }

    /// An absolute, standardised path (no `.`, `..` or trailing `/`), symbolic links kept.
    static func absolute(_ path: String) -> String {
        let base = path.hasPrefix("/") ? path : FileManager.default.currentDirectoryPath + "/" + path
        return URL(fileURLWithPath: base).standardized.path
    }
}
