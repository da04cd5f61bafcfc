import Delivery
import Foundation
import TesseraCore

/// The manifests of the builds before this one that devices may hold, newest first, with their
/// exact bytes (`--against PREVIOUS`): the previous build's manifest, then the predecessors it
/// lists, at most `Manifest.maxPredecessors` in all. A build lists them as its `predecessors`
/// and writes a patch from each (`UpdateFilesStep`).
///
/// A predecessor's bytes come from beside the previous manifest: `manifests/<sha256>.json.xz` of
/// its folder or URL (every build keeps those of its own predecessors there), or a
/// `tessera serve` build's manifest (`/v1/builds/<sha256>/manifest`) for a channel's URL. One
/// that cannot be had, or whose bytes are not the ones listed, is left out: devices holding it
/// fetch the whole manifest.
public struct PreviousManifests: Sendable {
    public struct Held: Sendable {
        public var reference: ManifestReference
        public var bytes: [UInt8]
        /// The xz form it was read in, when it was (kept as it is: compressing a large manifest
        /// again for each of ten predecessors would cost more than the rest of a no-op build).
        public var compressed: [UInt8]?

        public init(reference: ManifestReference, bytes: [UInt8], compressed: [UInt8]? = nil) {
            self.reference = reference
            self.bytes = bytes
            self.compressed = compressed
        }
    }

    /// Newest first.
    public var manifests: [Held]

    public init(manifests: [Held]) {
        self.manifests = Array(manifests.prefix(Manifest.maxPredecessors))
    }

    public var references: [ManifestReference] { manifests.map(\.reference) }

    /// Where a build keeps the manifests it has patches from, relative to its output folder.
    public static func historyPath(of reference: ManifestReference) -> String {
        "manifests/\(reference.sha256.hex).json.xz"
    }

    /// Reads the previous build at `location` (`ReportedBuildLoader.manifestBytes`) and what it
    /// lists as its predecessors.
    public static func load(_ location: String) throws(TesseraError) -> PreviousManifests {
        let found = try ReportedBuildLoader.manifestBytes(location)
        let previous = try Manifest.decode(Data(found.bytes), source: location)
        let reference = ManifestReference(of: found.bytes)
        // The previous build's own `manifest.json.xz`, when it is beside it and decodes to it.
        let compressed = found.folder.flatMap { FileManager.default.contents(atPath: "\($0)/\(UpdateIndex.compressedManifestName)") }
            .map { [UInt8]($0) }
            .flatMap { xz in (try? XZ.decompress(xz, expectedSize: reference.bytes, maxSize: ManifestLimits.maxBytes)) == found.bytes ? xz : nil }
        var held = [Held(reference: reference, bytes: found.bytes, compressed: compressed)]
        for reference in (previous.predecessors ?? []).prefix(Manifest.maxPredecessors - 1) {
            if let kept = history(reference, of: found), ManifestReference(of: kept.bytes) == reference {
                held.append(Held(reference: reference, bytes: kept.bytes, compressed: kept.compressed))
            }
        }
        return PreviousManifests(manifests: held)
    }

    /// The bytes of a predecessor of the build `found` is the manifest of (and their xz form,
    /// when they came in it); nil when they cannot be had.
    private static func history(_ reference: ManifestReference,
                                of found: ReportedBuildLoader.Located) -> (bytes: [UInt8], compressed: [UInt8]?)? {
        let compressed: [UInt8]?
        if let url = found.url {
            let parts = url.path.split(separator: "/")
            // A channel's manifest (`…/v1/channels/NAME/manifest`): the server keeps every build's.
            if parts.count >= 4, parts[parts.count - 4] == "v1", parts[parts.count - 3] == "channels" {
                var server = url
                for _ in 0..<4 { server.deleteLastPathComponent() }
                let manifest = server.appendingPathComponent("v1/builds/\(reference.sha256.hex)/manifest")
                return (try? ReportedBuildLoader.fetch(manifest, named: manifest.absoluteString)).map { ([UInt8]($0), nil) }
            }
            let file = url.deletingLastPathComponent().appendingPathComponent(historyPath(of: reference))
            compressed = (try? ReportedBuildLoader.fetch(file, named: file.absoluteString)).map { [UInt8]($0) }
        } else {
            compressed = FileManager.default.contents(atPath: "\(found.folder ?? ".")/\(historyPath(of: reference))").map { [UInt8]($0) }
        }
        guard let compressed, let bytes = try? XZ.decompress(compressed, expectedSize: reference.bytes, maxSize: ManifestLimits.maxBytes) else {
            return nil
        }
        return (bytes, compressed)
    }
}
