import Delivery
import Foundation
import TesseraCore

/// What a channel's devices update through (`docs/updates.md`), kept beside the blobs:
/// `updates/manifests/<sha256>.json.xz`, each published manifest compressed, and
/// `updates/patches/<from>-<to>.patch`, a patch between two published manifests.
///
/// Both are checked by the routes before they are put here (the compressed manifest decodes to
/// the build's manifest; the patch, applied to its source, makes its target), so whatever a
/// device reads from here was once shown to make the manifest it names. Names come only from
/// parsed digests. Files are written whole and renamed into place.
public struct UpdateFileStore: Sendable {
    public let root: String

    /// Opens `STORE/updates/`, creating its folders (a folder that cannot be made fails the
    /// first write, naming it), and removes temporary files an earlier process left.
    public init(store: String) {
        root = "\(store)/updates"
        for folder in ["manifests", "patches"] {
            try? FileManager.default.createDirectory(atPath: "\(root)/\(folder)", withIntermediateDirectories: true)
            _ = StaleTemporaryFiles.sweep(under: "\(root)/\(folder)")
        }
    }

    public func compressedManifestPath(of build: ContentHash) -> String { "\(root)/manifests/\(build.hex).json.xz" }

    /// The patch's path: its file name is the one `updates.json` names (`ManifestPatch.path`).
    public func patchPath(from source: ContentHash, to target: ContentHash) -> String {
        "\(root)/patches/\(source.hex)-\(target.hex).\(ManifestPatch.fileExtension)"
    }

    public func putCompressedManifest(_ bytes: [UInt8], of build: ContentHash) throws(TesseraError) {
        try write(bytes, to: compressedManifestPath(of: build))
    }

    public func putPatch(_ bytes: [UInt8], from source: ContentHash, to target: ContentHash) throws(TesseraError) {
        try write(bytes, to: patchPath(from: source, to: target))
    }

    public func compressedManifest(of build: ContentHash) -> [UInt8]? { read(compressedManifestPath(of: build)) }

    public func patch(from source: ContentHash, to target: ContentHash) -> [UInt8]? { read(patchPath(from: source, to: target)) }

    /// The size of a stored file, nil when absent.
    public func size(of path: String) -> Int? {
        (try? FileManager.default.attributesOfItem(atPath: path)[.size] as? Int) ?? nil
    }

    private func read(_ path: String) -> [UInt8]? { FileManager.default.contents(atPath: path).map { Array($0) } }

    private func write(_ bytes: [UInt8], to path: String) throws(TesseraError) {
        try AtomicFile.write(bytes, to: path)
    }
}
