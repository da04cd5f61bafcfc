import Delivery
import Foundation
import TesseraCore

/// Writes a build's managed asset packs under its output folder, each file atomically:
/// `apple/asset-packs/<id>.json` (Apple's manifest, one per pack, its `fileSelectors` relative
/// to the output folder), `apple/asset-packs.json` (`ManagedAssetPackIndex`) and
/// `apple/TesseraAssetPacks.swift` (`AssetPackFilterSource`).
public enum ManagedAssetPackFiles {
    public static let index = "apple/asset-packs.json"
    public static let filter = "apple/TesseraAssetPacks.swift"

    static func manifestPath(_ id: String) -> String { "apple/asset-packs/\(id).json" }

    /// The files written, relative to `folder`.
    public static func write(_ plan: ManagedAssetPackPlan, manifest: Manifest, mode: ApplePackIDs,
                             into folder: String) throws(TesseraError) -> [String] {
        var written: [String] = []
        for pack in plan.packs {
            let path = manifestPath(pack.id)
            try AtomicFile.write(try StableJSON.encode(ManagedAssetPackManifest(pack)), to: "\(folder)/\(path)")
            written.append(path)
        }
        try AtomicFile.write(try StableJSON.encode(ManagedAssetPackIndex(pipeline: manifest.pipeline, plan: plan, mode: mode)),
                             to: "\(folder)/\(index)")
        try AtomicFile.write(Array(AssetPackFilterSource.render(plan, pipeline: manifest.pipeline).utf8), to: "\(folder)/\(filter)")
        return written + [index, filter]
    }
}
