import Delivery
import Foundation
import Packing
import TesseraCore

/// The after-build step that writes, beside `manifest.json`, what devices update by
/// (`docs/updates.md`): the manifest xz-compressed (`manifest.json.xz`), a patch from each
/// manifest devices may hold (`patches/<from>-<to>.patch`, with `--against`), the bytes of those
/// manifests for the next build to diff with (`manifests/<sha256>.json.xz`), and the index of
/// them all (`updates.json`). Every file is written atomically and from the manifests' bytes
/// alone, so two runs write the same bytes.
enum UpdateFilesStep {
    static func run(manifestAt manifestPath: String, previous: PreviousManifests?) throws(TesseraError) {
        // Read as bytes alone: the file's `Data` kept beside its copy was the manifest twice over
        // while compressing it (issue 54, item 14).
        guard let bytes = FileManager.default.contents(atPath: manifestPath).map({ [UInt8]($0) }) else {
            throw TesseraError(.io, file: manifestPath, origin: .manifest, reason: "cannot read the manifest written")
        }
        let target = ManifestReference(of: bytes)
        let folder = (manifestPath as NSString).deletingLastPathComponent
        let compressedPath = "\(folder)/\(UpdateIndex.compressedManifestName)"
        let compressedBytes: Int
        if let kept = keptCompression(of: target, in: folder) {
            // Found right: still this build's file, not a leftover for the inventory to remove.
            OutputLedger.record(compressedPath)
            compressedBytes = kept
        } else {
            let compressed = try XZ.compress(bytes, level: XZ.manifestLevel)
            try AtomicFile.write(compressed, to: compressedPath)
            compressedBytes = compressed.count
        }
        var patches: [UpdateIndex.Patch] = []
        for held in previous?.manifests ?? [] where held.reference != target {
            let patch = try ManifestDiffer.patch(from: held.bytes, to: bytes)
            let path = ManifestPatch.path(from: held.reference.sha256, to: target.sha256)
            try AtomicFile.write(patch, to: "\(folder)/\(path)")
            // Kept as it was read, when it came compressed: the same liblzma preset wrote it.
            let kept: [UInt8]
            if let compressed = held.compressed { kept = compressed } else { kept = try XZ.compress(held.bytes, level: XZ.manifestLevel) }
            try AtomicFile.write(kept, to: "\(folder)/\(PreviousManifests.historyPath(of: held.reference))")
            patches.append(UpdateIndex.Patch(from: held.reference, path: path, bytes: patch.count))
        }
        let index = UpdateIndex(manifest: target, compressedBytes: compressedBytes, patches: patches)
        try AtomicFile.write(try StableJSON.encode(index), to: "\(folder)/\(UpdateIndex.fileName)")
    }

    /// The size of the `manifest.json.xz` an earlier build left for this very manifest, when it
    /// decodes to it: a build that changed nothing does not compress its manifest again (xz at
    /// preset 6 costs seconds on a 5,000-asset manifest; decoding a tenth of that).
    private static func keptCompression(of target: ManifestReference, in folder: String) -> Int? {
        guard let indexData = FileManager.default.contents(atPath: "\(folder)/\(UpdateIndex.fileName)"),
              let index = try? UpdateIndex.decode(indexData, source: UpdateIndex.fileName), index.manifest == target,
              let kept = FileManager.default.contents(atPath: "\(folder)/\(UpdateIndex.compressedManifestName)"),
              kept.count == index.compressedBytes,
              let decoded = try? Delivery.XZ.decompress([UInt8](kept), expectedSize: target.bytes, maxSize: ManifestLimits.maxBytes),
              ManifestReference(of: decoded) == target else { return nil }
        return kept.count
    }
}
