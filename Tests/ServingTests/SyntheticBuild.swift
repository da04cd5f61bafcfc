import Delivery
import Foundation
import Manifests
import PublishedBuilds
import Serving
import TesseraCore

/// A small manifest with real bundle blobs (random bytes) for in-process route tests.
struct SyntheticBuild {
    let manifest: Manifest
    let manifestBytes: [UInt8]
    let blobs: [ContentHash: [UInt8]]
    var id: String { ContentHash.of(manifestBytes).hex }

    init(seed: UInt64 = 1) throws {
        var generator = SplitMix(state: seed)
        var manifest = Manifest(pipeline: "synthetic", assets: [])
        manifest.deviceClasses = [try KnownDevices.device("iPhone15,2"), try KnownDevices.device("iPad12,1")]
        manifest.packs = [PackEntry(id: "p-red", tags: ["Red"], category: .prefetch, priority: 1),
                          PackEntry(id: "p-green", tags: ["Green"], category: .onDemand, priority: nil),
                          PackEntry(id: "p-base", tags: ["Base"], category: .initialInstall, priority: nil)]
        var blobs: [ContentHash: [UInt8]] = [:]
        for pack in manifest.packs {
            for device in manifest.deviceClasses {
                let bytes = (0..<(1000 + Int(generator.next() % 5000))).map { _ in UInt8(truncatingIfNeeded: generator.next()) }
                let hash = ContentHash.of(bytes)
                blobs[hash] = bytes
                manifest.bundles.append(BundleEntry(pack: pack.id, device: device.id, url: "https://cdn.example.com/\(hash.hex).tsb",
                                                    path: "bundles/\(device.id)/\(pack.id).tsb", bytes: bytes.count,
                                                    uncompressedSize: bytes.count, sha256: hash, entries: []))
            }
        }
        self.manifest = manifest
        manifestBytes = try ManifestWriter.encode(manifest)
        self.blobs = blobs
    }
}

/// A tiny deterministic generator, so the synthetic blobs are the same in every run.
struct SplitMix {
    var state: UInt64
    mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }
}
