import Foundation

/// Where a build's folders are, relative to its checkout: the nearest folder above the input
/// folder holding `.git` (or `$TESSERA_WORKSPACE`), else the input folder itself. A plan record
/// keyed by these relative paths serves a second checkout at another absolute path (a CI
/// runner's `/builds/…/project` and a laptop's `~/src/project`) as it serves the first, and a
/// copy without `.git` (a Docker build context, an artifact) serves its own copies: the output
/// is then named by its way from the input (`../out`), which a copy keeps, not by the current
/// directory, which it does not.
///
/// The search stops where git's own does by default (`GIT_DISCOVERY_ACROSS_FILESYSTEM` unset): at
/// the edge of the input's file system. A copy on a mounted volume (a Docker bind mount, a CI
/// cache disk) inside another project's checkout is not that project's.
struct WorkspaceRoot {
    let path: String

    init(input: String, environment: [String: String] = ProcessInfo.processInfo.environment,
         device: (String) -> UInt64? = Self.device(of:)) {
        if let named = environment["TESSERA_WORKSPACE"], !named.isEmpty {
            path = Self.absolute(named)
            return
        }
        var folder = URL(fileURLWithPath: Self.absolute(input))
        let inputDevice = device(folder.path)
        while folder.path != "/", inputDevice == nil || device(folder.path) == inputDevice {
            if FileManager.default.fileExists(atPath: folder.appendingPathComponent(".git").path) {
                path = folder.path
                return
            }
            folder.deleteLastPathComponent()
        }
        path = Self.absolute(input)
    }

    static func device(of path: String) -> UInt64? {
        var info = stat()
        return stat(path, &info) == 0 ? UInt64(info.st_dev) : nil
    }

    /// `folder` relative to the root (`Samples`, `.` for the root, `../out` beside it).
    func relative(_ folder: String) -> String {
        let full = Self.absolute(folder)
        if full == path { return "." }
        let from = path.split(separator: "/"), to = full.split(separator: "/")
        let shared = zip(from, to).prefix { $0 == $1 }.count
        return (Array(repeating: "..", count: from.count - shared) + to[shared...].map(String.init)).joined(separator: "/")
    }

    /// An absolute, standardised path (no `.`, `..` or trailing `/`), symbolic links kept.
    static func absolute(_ path: String) -> String {
        let base = path.hasPrefix("/") ? path : FileManager.default.currentDirectoryPath + "/" + path
        return URL(fileURLWithPath: base).standardized.path
    }
}
