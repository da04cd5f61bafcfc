import BuildCache
import Foundation

/// A workspace with the sample laid out, a build without any cache as the reference, and an empty
/// folder for a DAV store: what the remote-cache suites start from.
struct RemoteStoreSetting {
    let workspace: CacheWorkspace
    let reference: [String: Data]
    let store: String

    init() async throws {
        workspace = try CacheWorkspace()
        try workspace.layOutSample()
        _ = try await workspace.build(into: "\(workspace.root)/plain", cache: nil)
        reference = workspace.outputs("\(workspace.root)/plain")
        store = "\(workspace.root)/remote"
        try FileManager.default.createDirectory(atPath: store, withIntermediateDirectories: true)
    }

    /// A fresh local cache folder (a fresh clone on another runner) backed by `remote`.
    func freshCache(_ name: String, remote: RemoteCache) throws -> BuildCache {
        try BuildCache(folder: CacheFolder(path: "\(workspace.root)/\(name)"), remote: remote)
    }

    func storedFiles() -> [String] {
        (FileManager.default.enumerator(atPath: store)?.allObjects as? [String] ?? [])
            .filter { $0.hasPrefix("ac/") || $0.hasPrefix("cas/") }.filter { $0.split(separator: "/").count == 2 }.sorted()
    }
}
