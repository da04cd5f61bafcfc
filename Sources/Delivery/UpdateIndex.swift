import Foundation
import TesseraCore

/// `updates.json`, beside `manifest.json` (`docs/updates.md`): the cheapest ways to the build's
/// manifest from one a device holds. A device fetches this small file first: the manifest it
/// already holds means nothing changed; a patch from it costs the patch; otherwise the whole
/// manifest compressed (`manifest.json.xz`).
///
/// It names the manifest each way makes (`manifest`, the SHA-256 and size every patch's output
/// and the decompressed manifest are checked against before they are parsed); with a signed
/// channel the signed statement names it too, and the two must agree.
public struct UpdateIndex: Sendable, Codable, Equatable {
    public static let currentVersion = 1
    /// Its name beside `manifest.json`.
    public static let fileName = "updates.json"
    /// The whole manifest, xz-compressed, beside `manifest.json`.
    public static let compressedManifestName = "manifest.json.xz"
    /// The largest index read: eleven entries take about 2 KiB.
    public static let maxBytes = 64 << 10

    /// One patch: from which manifest, where, how large.
    public struct Patch: Sendable, Codable, Equatable {
        /// The manifest it applies to.
        public var from: ManifestReference
        /// Relative to the index's folder (`ManifestPatch.path(from:to:)`).
        public var path: String
        public var bytes: Int

        public init(from: ManifestReference, path: String, bytes: Int) {
            self.from = from
            self.path = path
            self.bytes = bytes
        }
    }

    public var version: Int
    /// The manifest every way below makes.
    public var manifest: ManifestReference
    /// `manifest.json.xz`'s size.
    public var compressedBytes: Int
    /// Newest source first (the manifest's `predecessors` order).
    public var patches: [Patch]

    public init(manifest: ManifestReference, compressedBytes: Int, patches: [Patch]) {
        self.version = Self.currentVersion
        self.manifest = manifest
        self.compressedBytes = compressedBytes
        self.patches = patches
    }

    /// The patch from the manifest a device holds, if there is one.
    public func patch(from held: ManifestReference) -> Patch? { patches.first { $0.from == held } }

    /// Reads an index, refusing one that is too large, of another version, or that names a
    /// file outside the build or sizes over a manifest's; `source` names it in errors.
    public static func decode(_ data: Data, source: String) throws(TesseraError) -> UpdateIndex {
        func refuse(_ reason: String) -> TesseraError { TesseraError(.invalidInput, file: source, origin: .manifest, reason: reason) }
        guard data.count <= maxBytes else { throw refuse("the update index is \(data.count) bytes; at most \(maxBytes)") }
        let index: UpdateIndex
        do {
            index = try JSONDecoder().decode(UpdateIndex.self, from: data)
        } catch {
            throw refuse("not a Tessera update index: \(error)")
        }
        guard index.version == currentVersion else { throw refuse("update index version \(index.version) is not \(currentVersion)") }
        let limit = 0...ManifestLimits.maxBytes
        guard limit.contains(index.manifest.bytes), limit.contains(index.compressedBytes),
              index.patches.count <= Manifest.maxPredecessors else {
            throw refuse("the update index declares sizes or a count over the limits")
        }
        for patch in index.patches {
            guard Manifest.isSafeRelativePath(patch.path), limit.contains(patch.bytes), limit.contains(patch.from.bytes) else {
                throw refuse("patch \"\(patch.path.prefix(200))\" is not a relative path inside the build, or its sizes are over the limits")
            }
        }
        return index
    }
}
