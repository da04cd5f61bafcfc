import Foundation
import TesseraCore

/// The files a build's problems name, each as its path inside the input folder (the path as
/// given when outside it) and its content's SHA-256 ("" for a folder or a file that is gone):
/// `report.json`'s `problemFiles`. A later build compares its own with them to tell a problem on
/// a file a pull request added or changed from an old one (`ProblemNovelty`), whatever folder
/// either build was checked out in.
public enum ProblemFiles {
    public static func fingerprints(of problems: [BuildProblem], input: String) -> [String: String] {
        let root = URL(fileURLWithPath: input).standardizedFileURL.path
        var found: [String: String] = [:]
        for problem in problems {
            let path = problem.location.path
            let key = relative(path, to: root)
            if found[key] != nil { continue }
            var isFolder: ObjCBool = false
            let isFile = FileManager.default.fileExists(atPath: path, isDirectory: &isFolder) && !isFolder.boolValue
            found[key] = isFile ? ((try? ContentHash.ofFile(at: path))?.hex ?? "") : ""
        }
        return found
    }

    /// `path` inside `root` (already standardised), or `path` itself when outside it.
    public static func relative(_ path: String, to root: String) -> String {
        let standard = URL(fileURLWithPath: path).standardizedFileURL.path
        let prefix = root.hasSuffix("/") ? root : root + "/"
        return standard.hasPrefix(prefix) ? String(standard.dropFirst(prefix.count)) : path
    }
}

extension BuildProblem {
    /// `file` split into its path and, for a pipeline file's problem, its line and column
    /// (`path`, `path:line` or `path:line:column`).
    public var location: (path: String, line: Int?, column: Int?) {
        let parts = file.split(separator: ":", omittingEmptySubsequences: false)
        if parts.count >= 3, let line = Int(parts[parts.count - 2]), let column = Int(parts[parts.count - 1]) {
            return (parts.dropLast(2).joined(separator: ":"), line, column)
        }
        if parts.count >= 2, let line = Int(parts[parts.count - 1]) {
            return (parts.dropLast().joined(separator: ":"), line, nil)
        }
        return (file, nil, nil)
    }
}
