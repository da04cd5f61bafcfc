import Delivery
import Foundation
import Manifests
import Pipeline
import TestSupport
import Testing
import TesseraCore

/// Issue 55: a pack whose contents change keeps its platform name (Play updates an asset pack by
/// its module name, an app asks Apple for a pack by its ID: a renamed pack is a new pack to both),
/// and what did not change is byte-identical build to build, so an update costs only the change.
@Suite("platform exports stay stable across builds")
struct PlatformExportStabilityTests {
    private static let android = """
        version: 1
        name: android
        stages:
          decode: {}
          slice:
            devices: ["android-mdpi", "android-xhdpi", "android-xxxhdpi"]
          pack:
            untagged: pack
          manifest: {}

        """

    @Test("one tagged image changed: the same Apple pack IDs and Play asset-pack names, its own bundles changed, every other asset's files byte-identical",
          arguments: ["apple", "android"])
    func oneChangedImage(platform: String) async throws {
        let workspace = try Workspace()
        let input = "\(workspace.root)/Samples"
        try FileManager.default.copyItem(atPath: "\(Workspace.packageRoot)/Samples", toPath: input)
        let text = platform == "apple"
            ? try String(contentsOfFile: "\(Workspace.packageRoot)/Pipelines/samples.yml", encoding: .utf8)
                .replacingOccurrences(of: "    untagged: app ", with: "    untagged: pack ")
            : Self.android
        let definition = try PipelineFileReader.parse(text, file: "\(platform).yml")
        func build(_ name: String) async throws -> (folder: String, manifest: Manifest) {
            let folder = "\(workspace.root)/\(name)"
            let outcome = try await PipelineRunner.run(BuildRequest(definition: definition, inputFolder: input, outputFolder: folder))
            #expect(outcome.report.succeeded)
            return (folder, try #require(outcome.manifest))
        }
        let v1 = try await build("v1")
        let changed = "\(input)/ODR.xcassets/Red Star.imageset/Red Star.png"
        try Data(Self.withTextChunk(Array(try Data(contentsOf: URL(fileURLWithPath: changed))))).write(to: URL(fileURLWithPath: changed))
        let v2 = try await build("v2")

        // The platform's pack names.
        if platform == "apple" {
            let ids = { (folder: String) throws -> [String] in
                try JSONDecoder().decode(ManagedAssetPackIndex.self, from: Data(contentsOf: URL(fileURLWithPath: "\(folder)/apple/asset-packs.json")))
                    .assetPacks.map(\.assetPackID).sorted()
            }
            #expect(try ids(v1.folder) == ids(v2.folder) && !(try ids(v1.folder)).isEmpty)
        } else {
            let names = { (folder: String) throws -> [String] in
                try JSONDecoder().decode(PlayAssetPackIndex.self, from: Data(contentsOf: URL(fileURLWithPath: "\(folder)/android/asset-packs.json")))
                    .assetPacks.map(\.name).sorted()
            }
            #expect(try names(v1.folder) == names(v2.folder) && !(try names(v1.folder)).isEmpty)
        }
        #expect(v1.manifest.packs.map(\.id) == v2.manifest.packs.map(\.id))

        // The change reached the bundles holding it, and only the changed asset's files differ.
        let redStar = { (manifest: Manifest) in manifest.assets.first { $0.name.name == "Red Star" } }
        let before = try #require(redStar(v1.manifest)), after = try #require(redStar(v2.manifest))
        #expect(before.variants.map(\.sha256) != after.variants.map(\.sha256))
        #expect(Set(v1.manifest.bundles.map(\.sha256)) != Set(v2.manifest.bundles.map(\.sha256)))
        let files = { (manifest: Manifest) in
            Dictionary(uniqueKeysWithValues: manifest.assets.filter { $0.name.name != "Red Star" }.flatMap(\.variants).map { ($0.path, $0.sha256) })
        }
        #expect(files(v1.manifest) == files(v2.manifest) && files(v1.manifest).count > 10)
        for (path, hash) in files(v2.manifest) {
            #expect(try ContentHash.ofFile(at: "\(v2.folder)/\(path)") == hash, "\(path)")
        }
    }

    /// The PNG with a `tEXt` chunk before its `IEND`: other bytes, the same pixels.
    private static func withTextChunk(_ png: [UInt8]) -> [UInt8] {
        let data = Array("Comment\u{0}changed for an update".utf8)
        let kind = Array("tEXt".utf8)
        let crc = CRC32.checksum(kind + data)
        let length = UInt32(data.count)
        let chunk = [UInt8(length >> 24), UInt8(length >> 16 & 0xFF), UInt8(length >> 8 & 0xFF), UInt8(length & 0xFF)]
            + kind + data + [UInt8(crc >> 24), UInt8(crc >> 16 & 0xFF), UInt8(crc >> 8 & 0xFF), UInt8(crc & 0xFF)]
        return Array(png.dropLast(12)) + chunk + Array(png.suffix(12))
    }
}
