import Delivery
import Foundation
import Manifests
import Pipeline
import TestSupport
import Testing
import TesseraCore

/// Play Asset Delivery asset-pack modules from a real Android build (issue 29), checked against
/// the layout Google documents for the Android Gradle plugin (bundletool could not be obtained
/// here: no Maven or Google repository is reachable).
@Suite("Play asset packs")
struct PlayAssetPackTests {
    private static let pipeline = """
        version: 1
        name: android
        stages:
          decode: {}
          slice:
            devices: ["android-ldpi", "android-mdpi", "android-hdpi", "android-xhdpi", "android-xxhdpi", "android-xxxhdpi"]
          pack:
            untagged: pack
            prefetch-order: [Blue]
          manifest: {}

        """

    @Test("one module per pack with its delivery mode, every Android class's files hard-linked in, media stored, no Apple output")
    func samplesBuild() async throws {
        let workspace = try Workspace()
        let out = "\(workspace.root)/out"
        let definition = try PipelineFileReader.parse(Self.pipeline, file: "android.yml")
        let outcome = try await PipelineRunner.run(BuildRequest(definition: definition, inputFolder: "\(Workspace.packageRoot)/Samples",
                                                                outputFolder: out))
        #expect(outcome.report.succeeded)
        let manifest = try #require(outcome.manifest)
        let index = try JSONDecoder().decode(PlayAssetPackIndex.self, from: Data(contentsOf: URL(fileURLWithPath: "\(out)/android/asset-packs.json")))
        #expect(index.assetPacks.count == manifest.packs.count)
        let expected: [PackCategory: String] = [.initialInstall: "install-time", .prefetch: "fast-follow", .onDemand: "on-demand"]
        for pack in manifest.packs {
            let name = "tessera_" + (pack.tags.isEmpty ? ["base"] : pack.tags.sorted()).map { $0.lowercased() }.joined(separator: "_")
            let entry = try #require(index.assetPacks.first { $0.name == name }, "\(name)")
            #expect(entry.deliveryType == expected[pack.category])
            let gradle = try String(contentsOfFile: "\(out)/android/asset-packs/\(name)/build.gradle", encoding: .utf8)
            #expect(gradle.contains("id 'com.android.asset-pack'") && gradle.contains("packName = \"\(name)\"")
                    && gradle.contains("deliveryType = \"\(expected[pack.category]!)\""))
            // The module holds exactly the pack's files of every Android class, byte for byte.
            let sources = Set(manifest.bundles.filter { $0.pack == pack.id }.flatMap(\.entries))
            let variants = manifest.assets.flatMap(\.variants).filter { sources.contains(BundleEntryName.entry(forOutput: $0.path, folder: "assets")) }
            #expect(Set(entry.files) == Set(variants.map { "tessera/" + $0.path.dropFirst("variants/".count) }))
            for variant in variants {
                let copy = "\(out)/android/asset-packs/\(name)/src/main/assets/tessera/\(variant.path.dropFirst("variants/".count))"
                #expect(try ContentHash.ofFile(at: copy) == variant.sha256)
            }
            #expect(entry.bytes == variants.reduce(0) { $0 + $1.bytes })
        }
        #expect(index.assetPacks.first { $0.name == "tessera_blue_star" }?.deliveryType == "fast-follow")
        let app = try String(contentsOfFile: "\(out)/android/app-asset-packs.gradle", encoding: .utf8)
        #expect(index.assetPacks.allSatisfy { app.contains("\":\($0.name)\"") } && app.contains("noCompress += [\"bitmap\", \"gif\", \"heic\", \"jpeg\", \"jpg\", \"png\""))
        let settings = try String(contentsOfFile: "\(out)/android/settings-asset-packs.gradle", encoding: .utf8)
        #expect(index.assetPacks.allSatisfy { settings.contains("include ':\($0.name)'") })
        let config = try #require(try JSONSerialization.jsonObject(with: Data(contentsOf: URL(fileURLWithPath: "\(out)/android/BundleConfig.json"))) as? [String: [String: [String]]])
        #expect(config["compression"]?["uncompressedGlob"]?.contains("assets/**/*.png") == true)
        // An Android-only build writes no Apple asset packs.
        #expect(!FileManager.default.fileExists(atPath: "\(out)/apple"))
    }

    @Test("Play's limits: a pack over 1.5 GB, install-time packs over 4 GB in all, are errors naming them")
    func limits() throws {
        func manifest(packs: [(String, PackCategory, Int)]) throws -> Manifest {
            var assets: [AssetEntry] = []
            var manifest = Manifest(pipeline: "big", assets: [])
            manifest.deviceClasses = [try KnownDevices.device("android-xxhdpi")]
            for (tag, category, bytes) in packs {
                let path = "variants/\(tag).png"
                assets.append(AssetEntry(name: AssetID(tag), variants: [
                    VariantEntry(scale: .x3, path: path, format: .png, width: 1, height: 1, bytes: bytes,
                                 sha256: ContentHash.of(Array(tag.utf8)), generated: false, source: "\(tag).png")], tags: [tag]))
                manifest.packs.append(PackEntry(id: tag, tags: [tag], category: category, priority: nil))
                manifest.bundles.append(BundleEntry(pack: tag, device: "android-xxhdpi", url: "", path: "", bytes: bytes, uncompressedSize: bytes,
                                                    sha256: ContentHash.of(Array(tag.utf8)), entries: [BundleEntryName.entry(forOutput: path, folder: "assets")]))
            }
            manifest.assets = assets
            return manifest
        }
        #expect(try PlayAssetPackPlan(try manifest(packs: [("level1", .onDemand, 1_400_000_000)])).packs.map(\.name) == ["tessera_level1"])
        let big = try manifest(packs: [("level1", .onDemand, 1_600_000_000)])
        let installs = try manifest(packs: (1...3).map { ("intro\($0)", .initialInstall, 1_400_000_000) })
        do throws(TesseraError) {
            _ = try PlayAssetPackPlan(big)
            Issue.record("a 1.6 GB pack was accepted")
        } catch {
            #expect(error.reason.contains("'tessera_level1'") && error.reason.contains("1.5"), "\(error.reason)")
        }
        do throws(TesseraError) {
            _ = try PlayAssetPackPlan(installs)
            Issue.record("4.2 GB of install-time packs were accepted")
        } catch {
            #expect(error.reason.hasPrefix("install-time asset packs total"), "\(error.reason)")
        }
    }

    @Test("device groups: each group's classes' files under #group_<name>, the rest under #group_other, and the app's targeting block")
    func deviceGroups() async throws {
        let workspace = try Workspace()
        let out = "\(workspace.root)/out"
        let text = Self.pipeline.replacingOccurrences(of: "    prefetch-order: [Blue]\n",
                                                      with: "    prefetch-order: [Blue]\n    play-device-groups: [high=android-xxhdpi+android-xxxhdpi, low=android-ldpi]\n")
        let outcome = try await PipelineRunner.run(BuildRequest(definition: try PipelineFileReader.parse(text, file: "android.yml"),
                                                                inputFolder: "\(Workspace.packageRoot)/Samples", outputFolder: out))
        let manifest = try #require(outcome.manifest)
        let index = try JSONDecoder().decode(PlayAssetPackIndex.self, from: Data(contentsOf: URL(fileURLWithPath: "\(out)/android/asset-packs.json")))
        let base = try #require(index.assetPacks.first { $0.name == "tessera_base" })
        func files(_ devices: Set<String>) -> Set<String> {
            let entries = Set(manifest.bundles.filter { $0.pack == "base" && devices.contains($0.device) }.flatMap(\.entries))
            return Set(manifest.assets.flatMap(\.variants).filter { entries.contains(BundleEntryName.entry(forOutput: $0.path, folder: "assets")) }
                .map { String($0.path.dropFirst("variants/".count)) })
        }
        func folder(_ name: String) -> Set<String> {
            Set(base.files.filter { $0.hasPrefix(name + "/") }.map { String($0.dropFirst(name.count + 1)) })
        }
        #expect(folder("tessera#group_high") == files(["android-xxhdpi", "android-xxxhdpi"]))
        #expect(folder("tessera#group_low") == files(["android-ldpi"]))
        #expect(folder("tessera#group_other") == files(["android-mdpi", "android-hdpi", "android-xhdpi"]))
        #expect(!base.files.contains { $0.hasPrefix("tessera/") })
        let app = try String(contentsOfFile: "\(out)/android/app-asset-packs.gradle", encoding: .utf8)
        #expect(app.contains("deviceTargetingConfig = file('device-targeting-config.xml')") && app.contains("defaultGroup = 'other'"))
        // A group naming a class the build does not have is refused.
        let bad = text.replacingOccurrences(of: "low=android-ldpi", with: "low=iPhone15,2")
        await #expect(throws: TesseraError.self) {
            _ = try await PipelineRunner.run(BuildRequest(definition: try PipelineFileReader.parse(bad, file: "android.yml"),
                                                          inputFolder: "\(Workspace.packageRoot)/Samples", outputFolder: "\(workspace.root)/bad"))
        }
    }
}
