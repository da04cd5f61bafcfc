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
            found[key] = fingerprint(of: path)
        }
        return found
    }

    /// Files past this size are fingerprinted by their size alone: a problem names a file, and
    /// reading a huge one through again would cost more than the annotation is worth.
    static let maxHashedBytes = 256 << 20

    /// A regular file's SHA-256 (its size past `maxHashedBytes`); "" for anything else. A FIFO,
    /// a socket or a device named like an image is never opened: reading one would block.
    static func fingerprint(of path: String) -> String {
        guard let attributes = try? FileManager.default.attributesOfItem(atPath: path),
              attributes[.type] as? FileAttributeType == .typeRegular,
              let size = (attributes[.size] as? NSNumber)?.intValue else { return "" }
        if size > maxHashedBytes { return "size:\(size)" }
        return (try? ContentHash.ofFile(at: path))?.hex ?? ""
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
    public var location: (path: String, line: Int?, column: Int?) { Self.location(of: file) }

    /// `file` as a problem names it (`path`, `path:line` or `path:line:column`), split.
    public static func location(of file: String) -> (path: String, line: Int?, column: Int?) {
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
