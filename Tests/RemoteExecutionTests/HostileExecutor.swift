@testable import BuildCache
import Foundation
import RemoteAPI
import SwiftProtobuf
import TestServers
import TesseraCore
import REAPIMessages

/// A casd that has run a build's actions turned into a hostile executor (issue 54, item 9): every
/// result in its action cache is rewritten, entries and trees uploaded to its CAS so that every
/// blob matches its digest, and the next build's identical actions are answered with the
/// tampered results (`Execute` on an action-cache hit). It touches only casd's own folder and
/// CAS, on loopback, and reads nothing larger than an action's entries.
final class HostileExecutor {
    let server: CASDServer
    /// The action cache's files and their bytes as the honest run left them.
    private let originals: [String: Data]
    private let store: ContentStore

    init(_ server: CASDServer) throws {
        self.server = server
        let objects = server.workFolder.appendingPathComponent("cache/actioncache/objects").path
        var originals: [String: Data] = [:]
        for case let name as String in FileManager.default.enumerator(atPath: objects)?.allObjects ?? [] {
            let path = "\(objects)/\(name)"
            var directory: ObjCBool = false
            guard FileManager.default.fileExists(atPath: path, isDirectory: &directory), !directory.boolValue,
                  let bytes = FileManager.default.contents(atPath: path) else { continue }
            originals[path] = bytes
        }
        self.originals = originals
        store = ContentStore(connection: try RemoteConnection(endpoint: RemoteEndpoint(url: server.url)!, timeout: .seconds(20)))
    }

    /// Rewrites every action's entries with `tamper` (the action's entries by their store path,
    /// `ab/<key>` → bytes; what it returns replaces them); the number of entries changed.
    func rewrite(_ tamper: ([String: [UInt8]]) throws -> [String: [UInt8]]) async throws -> Int {
        var changed = 0
        for (path, bytes) in originals {
            let parsed: REAPIMessages.Build_Bazel_Remote_Execution_V2_ActionResult? = try? .init(serializedBytes: bytes)
            guard var result = parsed else { continue }
            guard let index = result.outputDirectories.firstIndex(where: { $0.path == "cache/ac" }) else { continue }
            let treeDigest = result.outputDirectories[index].treeDigest
            guard let treeBytes = try await store.read([treeDigest])[treeDigest] else { throw HostileError("no tree \(treeDigest.hash)") }
            var tree = try REAPIMessages.Build_Bazel_Remote_Execution_V2_Tree(serializedBytes: treeBytes)
            var children: [String: REAPIMessages.Build_Bazel_Remote_Execution_V2_Directory] = [:]
            for child in tree.children { children[REAPIDigest(of: try child.serializedData()).hash] = child }
            // Root → `ab` folders → entries named by their key.
            var digests: [String: REAPIDigest] = [:]
            for folder in tree.root.directories {
                for file in children[folder.digest.hash]?.files ?? [] { digests["\(folder.name)/\(file.name)"] = file.digest }
            }
            let read = try await store.read(Array(digests.values))
            let entries = digests.compactMapValues { read[$0].map { [UInt8]($0) } }
            let tampered = try tamper(entries)
            var uploads: [BlobUpload] = []
            var newChildren: [REAPIMessages.Build_Bazel_Remote_Execution_V2_Directory] = []
            for folderIndex in tree.root.directories.indices {
                let folder = tree.root.directories[folderIndex]
                guard var child = children[folder.digest.hash] else { continue }
                for fileIndex in child.files.indices {
                    let name = "\(folder.name)/\(child.files[fileIndex].name)"
                    guard let bytes = tampered[name], bytes != entries[name] else { continue }
                    let digest = REAPIDigest(of: bytes)
                    uploads.append(BlobUpload(digest: digest, source: .bytes(Data(bytes))))
                    child.files[fileIndex].digest = digest
                    changed += 1
                }
                let childBytes = try child.serializedData()
                uploads.append(BlobUpload(digest: REAPIDigest(of: childBytes), source: .bytes(childBytes)))
                tree.root.directories[folderIndex].digest = REAPIDigest(of: childBytes)
                newChildren.append(child)
            }
            tree.children = newChildren
            let newTree = try tree.serializedData()
            let newTreeDigest = REAPIDigest(of: newTree)
            uploads.append(BlobUpload(digest: newTreeDigest, source: .bytes(newTree)))
            try await store.uploadMissing(uploads)
            result.outputDirectories[index].treeDigest = newTreeDigest
            try result.serializedData().write(to: URL(fileURLWithPath: path))
        }
        return changed
    }

    /// Puts back the honest results.
    func restore() throws {
        for (path, bytes) in originals { try bytes.write(to: URL(fileURLWithPath: path)) }
    }

    /// Under each key, another job's entry of the same stage (every key of a stage with more
    /// than one in the action moves one place along).
    static func misfiled(_ entries: [String: [UInt8]]) -> [String: [UInt8]] {
        var byStage: [String: [String]] = [:]
        for (name, bytes) in entries {
            guard let entry = ActionEntry.parse(bytes) else { continue }
            byStage[entry.stage, default: []].append(name)
        }
        var result = entries
        for names in byStage.values where names.count > 1 {
            let sorted = names.sorted()
            for (position, name) in sorted.enumerated() { result[name] = entries[sorted[(position + 1) % sorted.count]] }
        }
        return result
    }

    /// Each variant's entry writing its bytes to `manifest.json.sig` instead (framed anew).
    static func escaping(_ entries: [String: [UInt8]]) throws -> [String: [UInt8]] {
        try entries.mapValues { bytes in
            guard var entry = ActionEntry.parse(bytes), entry.outputs.count == 1 else { return bytes }
            entry.outputs[0].path = "manifest.json.sig"
            return try entry.serialised()
        }
    }
}

struct HostileError: Error, CustomStringConvertible {
    let description: String
    init(_ description: String) { self.description = description }
}
