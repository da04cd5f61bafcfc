import Foundation
import SwiftProtobuf
import TesseraCore
import REAPIMessages

/// The files of an output directory an action produced, read from its `Tree` message: each
/// file's path under the directory and its digest. Nothing is downloaded but the tree itself.
package struct OutputTree: Sendable {
    /// Path (`/`-separated, under the output directory) → digest.
    package let files: [String: REAPIDigest]

    /// Throws when the tree is not a `Tree`, names a child it does not hold, or a path escapes.
    package init(treeBytes: Data) throws(TesseraError) {
        let tree: Build_Bazel_Remote_Execution_V2_Tree
        do {
            tree = try Build_Bazel_Remote_Execution_V2_Tree(serializedBytes: treeBytes)
        } catch {
            throw TesseraError(.invalidInput, origin: .execute, reason: "an output tree is not a REAPI Tree message: \(error)")
        }
        var children: [REAPIDigest: Build_Bazel_Remote_Execution_V2_Directory] = [:]
        for child in tree.children {
            // The server named each child by the digest of its own encoding; the canonical
            // encoding re-made here is the same bytes.
            guard let bytes = try? child.serializedData() else { continue }
            children[REAPIDigest(of: bytes)] = child
        }
        var files: [String: REAPIDigest] = [:]
        var pending: [(prefix: String, directory: Build_Bazel_Remote_Execution_V2_Directory)] = [("", tree.root)]
        var visited = 0
        while let (prefix, directory) = pending.popLast() {
            visited += 1
            // A tree is finite and acyclic by digests; a hostile one could still be deep.
            guard visited <= 1 + tree.children.count else {
                throw TesseraError(.invalidInput, origin: .execute, reason: "an output tree visits more directories than it holds")
            }
            for file in directory.files {
                guard Self.isName(file.name), file.digest.contentHash != nil, file.digest.sizeBytes >= 0 else {
                    throw TesseraError(.invalidInput, origin: .execute, reason: "an output tree names a file '\(file.name)' badly")
                }
                files[prefix + file.name] = file.digest
            }
            for folder in directory.directories {
                guard Self.isName(folder.name), let child = children[folder.digest] else {
                    throw TesseraError(.invalidInput, origin: .execute,
                                       reason: "an output tree names a directory '\(folder.name)' it does not hold")
                }
                pending.append((prefix + folder.name + "/", child))
            }
        }
        self.files = files
    }

    private static func isName(_ name: String) -> Bool {
        !name.isEmpty && name != "." && name != ".." && !name.contains("/")
    }
}
