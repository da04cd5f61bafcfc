import Foundation
import SwiftProtobuf
import TesseraCore
import REAPIMessages

/// An action's input root: files at relative paths, made into REAPI `Directory` messages (each
/// directory's files and subdirectories sorted by name, as the API requires, so the same files
/// always give the same root digest and the server's action cache can hit).
package struct InputRoot: Sendable {
    /// Where a file's bytes come from when it has to be uploaded.
    package enum Content: Sendable, Hashable {
        case file(String)
        case bytes(Data)
    }

    /// One file of the root.
    package struct File: Sendable {
        /// `/`-separated, relative, without `.` or `..`.
        package let path: String
        package let digest: REAPIDigest
        package let executable: Bool
        package let content: Content

        package init(path: String, digest: REAPIDigest, executable: Bool = false, content: Content) {
            self.path = path
            self.digest = digest
            self.executable = executable
            self.content = content
        }

        /// A file made of `bytes`.
        package init(path: String, bytes: Data, executable: Bool = false) {
            self.init(path: path, digest: REAPIDigest(of: bytes), executable: executable, content: .bytes(bytes))
        }
    }

    /// The root directory's digest: what an `Action` names.
    package let digest: REAPIDigest
    /// Every blob the root needs in the CAS: its files and its directory messages.
    package let blobs: [REAPIDigest: Content]

    /// Throws when two files share a path, a path is not relative, or a file is also a folder.
    package init(_ files: [File]) throws(TesseraError) {
        let tree = try Folder(files)
        var blobs: [REAPIDigest: Content] = [:]
        for file in files { blobs[file.digest] = file.content }
        digest = tree.encode(into: &blobs)
        self.blobs = blobs
    }

    /// A folder while the root is being built: its files and subfolders by name.
    private final class Folder {
        var files: [String: File] = [:]
        var folders: [String: Folder] = [:]

        init() {}

        convenience init(_ files: [File]) throws(TesseraError) {
            self.init()
            for file in files {
                let parts = file.path.split(separator: "/", omittingEmptySubsequences: false).map(String.init)
                guard !file.path.hasPrefix("/"), !parts.contains(where: { $0.isEmpty || $0 == "." || $0 == ".." }) else {
                    throw TesseraError(.invalidInput, file: file.path, origin: .execute, reason: "not a relative path inside an input root")
                }
                var folder = self
                for part in parts.dropLast() {
                    guard folder.files[part] == nil else {
                        throw TesseraError(.invalidInput, file: file.path, origin: .execute, reason: "'\(part)' is both a file and a folder")
                    }
                    let next = folder.folders[part] ?? Folder()
                    folder.folders[part] = next
                    folder = next
                }
                let name = parts.last!
                guard folder.files[name] == nil, folder.folders[name] == nil else {
                    throw TesseraError(.invalidInput, file: file.path, origin: .execute, reason: "given twice in one input root")
                }
                folder.files[name] = file
            }
        }

        /// This folder's `Directory` message, its own and its subfolders' bytes added to `blobs`.
        func encode(into blobs: inout [REAPIDigest: Content]) -> REAPIDigest {
            var directory = Build_Bazel_Remote_Execution_V2_Directory()
            // Sorted by the names' UTF-8 bytes, as REAPI's canonical form wants them.
            for name in folders.keys.sorted(by: { Array($0.utf8).lexicographicallyPrecedes(Array($1.utf8)) }) {
                var node = Build_Bazel_Remote_Execution_V2_DirectoryNode()
                node.name = name
                node.digest = folders[name]!.encode(into: &blobs)
                directory.directories.append(node)
            }
            for name in files.keys.sorted(by: { Array($0.utf8).lexicographicallyPrecedes(Array($1.utf8)) }) {
                let file = files[name]!
                var node = Build_Bazel_Remote_Execution_V2_FileNode()
                node.name = name
                node.digest = file.digest
                node.isExecutable = file.executable
                directory.files.append(node)
            }
            // Deterministic: the fields are written in number order and no map fields are set.
            let bytes = (try? directory.serializedData()) ?? Data()
            let digest = REAPIDigest(of: bytes)
            blobs[digest] = .bytes(bytes)
            return digest
        }
    }
}
