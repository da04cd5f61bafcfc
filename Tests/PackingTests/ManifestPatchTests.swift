import Delivery
import Foundation
import Packing
import Testing
import TesseraCore

/// Manifest patches (`docs/updates.md`): the differ here, the applier in Delivery, measured on
/// the manifest the format was chosen on.
@Suite("Manifest patches")
struct ManifestPatchTests {
    /// A manifest of `assets` image sets (1x, 2x and 3x PNGs) in 20 packs for 8 device classes
    /// (four take 2x, four 3x), with every object listed, as a packing build writes it.
    static func manifest(assets: Int = 5000, changing changed: Int? = nil) throws -> [UInt8] {
        let scales: [DisplayScale] = [.x1, .x2, .x3]
        func hash(_ text: String) -> ContentHash { ContentHash.of(Array(text.utf8)) }
        var entries: [AssetEntry] = []
        var objects: [TransferObject] = []
        for index in 0..<assets {
            let name = String(format: "Level%02d/Tile%05d", index % 20, index)
            let variants = scales.map { scale in
                let seed = index == changed && scale == .x2 ? "changed \(name) \(scale)" : "\(name) \(scale)"
                let bytes = 2000 + (index * 37 + scale.factor * 101) % 50_000 + (seed.hasPrefix("changed") ? 311 : 0)
                return VariantEntry(scale: scale, path: "variants/\(name)@\(scale).png", format: .png, width: 40 * scale.factor,
                                    height: 40 * scale.factor, bytes: bytes, sha256: hash(seed), generated: scale != .x3,
                                    source: "Assets.xcassets/\(name).imageset/\(name)@3x.png")
            }
            objects += variants.map { TransferObject(sha256: $0.sha256, bytes: $0.bytes, encoding: .identity, transferBytes: $0.bytes) }
            entries.append(AssetEntry(name: AssetID(name), variants: variants, tags: [String(format: "level%02d", index % 20)]))
        }
        var manifest = Manifest(pipeline: "app-thinning", assets: entries)
        manifest.objects = objects.sorted { $0.sha256 < $1.sha256 }
        let devices = (0..<8).map { "device-\($0)" }
        for pack in 0..<20 {
            let members = manifest.assets.filter { $0.tags == [String(format: "level%02d", pack)] }
            for (number, device) in devices.enumerated() {
                let scale: DisplayScale = number < 4 ? .x2 : .x3
                let files = members.compactMap { $0.variants.first { $0.scale == scale } }
                var content = ContentHasher()
                for file in files { content.update(file.sha256.bytes) }
                let sha = content.finalize()
                let path = "bundles/pack-\(pack)/\(sha.hex.prefix(16)).tsb"
                manifest.bundles.append(BundleEntry(
                    pack: "pack-\(pack)", device: device, url: "https://cdn.example.com/app/" + path, path: path,
                    bytes: files.reduce(0) { $0 + $1.bytes + 64 }, uncompressedSize: files.reduce(0) { $0 + $1.bytes },
                    sha256: hash(sha.hex), entries: files.map { BundleEntryName.entry(forOutput: $0.path, folder: "assets") }.sorted()))
            }
        }
        return try StableJSON.encode(manifest)
    }

    @Test("5,000 assets, one image changed: the patch reproduces the new manifest byte for byte, in under 1% of the compressed manifest")
    func oneImageChanged() throws {
        let old = try Self.manifest()
        let new = try Self.manifest(changing: 1234)
        #expect(old != new)
        let patch = try ManifestDiffer.patch(from: old, to: new)
        let compressed = try XZ.compress(new, level: 6)
        let applied = try ManifestPatch.apply(patch, to: old, target: ManifestReference(of: new))
        #expect(applied == new)
        print("manifest \(new.count) bytes; xz -6 \(compressed.count); patch \(patch.count)")
        #expect(patch.count < 2048)
        #expect(patch.count * 100 < compressed.count)
        if let folder = ProcessInfo.processInfo.environment["TESSERA_PATCH_MEASURE_DIR"] {
            try Data(old).write(to: URL(fileURLWithPath: "\(folder)/old.json"))
            try Data(new).write(to: URL(fileURLWithPath: "\(folder)/new.json"))
            try Data(patch).write(to: URL(fileURLWithPath: "\(folder)/new.patch"))
        }
    }

    @Test("the differ is deterministic and exact on edits at the start, the end, moves and unrelated bytes")
    func exactOnEdits() throws {
        let base = Array(String(repeating: "{\"sha256\" : \"0123456789abcdef0123456789abcdef\", \"bytes\" : 42},\n", count: 500).utf8)
        var moved = Array(base[20_000...]) + Array(base[..<20_000])
        moved[5] = 0x41
        let cases: [([UInt8], [UInt8])] = [
            (base, base), (base, Array("x".utf8) + base), (base, base + Array("tail".utf8)), (base, moved),
            ([], base), (base, []), (Array("short".utf8), Array("other".utf8)), (base, Array(base.reversed())),
        ]
        for (old, new) in cases {
            let patch = try ManifestDiffer.patch(from: old, to: new)
            #expect(try ManifestDiffer.patch(from: old, to: new) == patch)
            #expect(try ManifestPatch.apply(patch, to: old, target: ManifestReference(of: new)) == new)
        }
    }

    @Test("a patch for another target, from another source, with bytes changed, cut short or padded is refused before its output is used")
    func refusals() throws {
        let old = Array(String(repeating: "line of a manifest\n", count: 400).utf8)
        let new = old + Array("one more line\n".utf8)
        let patch = try ManifestDiffer.patch(from: old, to: new)
        let target = ManifestReference(of: new)
        func refused(_ patch: [UInt8], source: [UInt8] = old, target: ManifestReference = target) -> Bool {
            (try? ManifestPatch.apply(patch, to: source, target: target)) == nil
        }
        #expect(!refused(patch))
        #expect(refused(patch, target: ManifestReference(of: old)), "names another target")
        #expect(refused(patch, target: ManifestReference(sha256: target.sha256, bytes: target.bytes + 1)))
        #expect(refused(patch, source: new), "applies to another source")
        #expect(refused(Array(patch.prefix(patch.count - 3))), "cut short")
        #expect(refused(patch + [0]), "padded")
        #expect(refused(Array(patch.prefix(ManifestPatch.headerSize - 1))))
        // A forged patch whose header names the expected target but whose instructions make other bytes.
        let forged = try ManifestDiffer.patch(from: old, to: old + Array("one more LINE\n".utf8))
        var header = ManifestPatch.Header.decode(forged)!
        header.target = target
        #expect(refused(header.encoded() + forged[ManifestPatch.headerSize...]), "output's SHA-256 is checked")
    }
}
