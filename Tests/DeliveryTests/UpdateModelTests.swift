import Delivery
import Foundation
import Testing
import TesseraCore

/// The manifest's minor version 1 (`objects`, `predecessors`) and `updates.json`, as every reader
/// decodes them (`docs/updates.md`).
@Suite("Update model")
struct UpdateModelTests {
    static func hash(_ text: String) -> ContentHash { ContentHash.of(Array(text.utf8)) }

    /// A manifest with one asset in one bundle, its object listed.
    static func manifest() -> Manifest {
        let variant = VariantEntry(scale: .x2, path: "variants/Star@2x.png", format: .png, width: 80, height: 80, bytes: 900,
                                   sha256: hash("star"), generated: false, source: "Star@2x.png")
        var manifest = Manifest(pipeline: "p", assets: [AssetEntry(name: AssetID("Star"), variants: [variant], tags: ["Star"])])
        manifest.bundles = [BundleEntry(pack: "pack-star", device: "iphone-2x", url: "bundles/pack-star/1.tsb",
                                        path: "bundles/pack-star/1.tsb", bytes: 1000, uncompressedSize: 900, sha256: hash("bundle"),
                                        entries: ["assets/Star@2x.png"])]
        manifest.objects = [TransferObject(sha256: variant.sha256, bytes: 900, encoding: .identity, transferBytes: 900)]
        manifest.predecessors = [ManifestReference(sha256: hash("v1"), bytes: 4000)]
        return manifest
    }

    @Test("a manifest of minor version 0 (no minorVersion, objects or predecessors) and one of a later minor version both decode")
    func minorVersions() throws {
        var old = Self.manifest()
        old.minorVersion = nil
        old.objects = nil
        old.predecessors = nil
        let oldBytes = try StableJSON.encode(old)
        #expect(!String(decoding: oldBytes, as: UTF8.self).contains("minorVersion"))
        let decoded = try Manifest.decode(Data(oldBytes), source: "old")
        #expect(decoded.minorVersion == nil && decoded.objects == nil && BundleEntryObjects(decoded)[entry: "assets/Star@2x.png"] == nil)
        // A later minor version with a field this reader does not know: read, the field ignored.
        var later = try #require(try JSONSerialization.jsonObject(with: Data(try StableJSON.encode(Self.manifest()))) as? [String: Any])
        later["minorVersion"] = 7
        later["somethingNew"] = ["a": 1]
        let laterManifest = try Manifest.decode(try JSONSerialization.data(withJSONObject: later), source: "later")
        #expect(laterManifest.minorVersion == 7)
        #expect(BundleEntryObjects(laterManifest)[entry: "assets/Star@2x.png"]?.path == "objects/\(Self.hash("star").hex)")
    }

    @Test("more than 10 predecessors, or an object over the size limit, is refused")
    func limits() throws {
        var many = Self.manifest()
        many.predecessors = (0..<11).map { ManifestReference(sha256: Self.hash("\($0)"), bytes: 1) }
        #expect(many.violation()?.contains("predecessors") == true)
        var huge = Self.manifest()
        huge.objects![0].transferBytes = -1
        #expect(huge.violation()?.contains("transfer") == true)
        #expect(Self.manifest().violation() == nil)
    }

    @Test("updates.json: round trip; a patch path leaving the build or an oversized index is refused")
    func updateIndex() throws {
        let from = ManifestReference(sha256: Self.hash("v1"), bytes: 4000)
        let index = UpdateIndex(manifest: ManifestReference(sha256: Self.hash("v2"), bytes: 4100), compressedBytes: 900,
                                patches: [UpdateIndex.Patch(from: from, path: ManifestPatch.path(from: from.sha256, to: Self.hash("v2")),
                                                            bytes: 300)])
        let decoded = try UpdateIndex.decode(Data(try StableJSON.encode(index)), source: "updates.json")
        #expect(decoded == index)
        #expect(decoded.patch(from: from)?.bytes == 300)
        var hostile = index
        hostile.patches[0].path = "../../etc/passwd"
        #expect((try? UpdateIndex.decode(Data(try StableJSON.encode(hostile)), source: "x")) == nil)
        #expect((try? UpdateIndex.decode(Data(count: UpdateIndex.maxBytes + 1), source: "x")) == nil)
    }
}
