import Decoding
import Delivery
import Encoding
import Foundation
import Manifests
@testable import Pipeline
import SizeReporting
import Slicing
import TestServers
import TestSupport
import Testing
import TesseraCore

/// The split Xcode and Play make (issue 51): only tagged sets leave the app; what the OS reads
/// stays in it whatever its tags; in-app image sets are written for Xcode with their missing
/// scales; tag rules reach catalog sets; a catalog may belong to several targets.
@Suite("What stays in the app")
struct AppSplitTests {
    /// An opaque size × size PNG whose pixels depend on `seed`; noise when `noisy` (it does not compress).
    static func png(_ size: Int, seed: Int = 1, noisy: Bool = false) throws -> [UInt8] {
        var pixels = [UInt8](repeating: 255, count: size * size * 4)
        var state = UInt32(truncatingIfNeeded: seed &* 2_654_435_761)
        for y in 0..<size {
            for x in 0..<size {
                let index = (y * size + x) * 4
                if noisy {
                    for channel in 0..<3 {
                        state = state &* 1_664_525 &+ 1_013_904_223
                        pixels[index + channel] = UInt8(truncatingIfNeeded: state >> 24)
                    }
                } else {
                    pixels[index] = UInt8((x * 4 + seed * 40) % 256)
                    pixels[index + 1] = UInt8((y * 4) % 256)
                    pixels[index + 2] = UInt8((x ^ y) % 256)
                }
            }
        }
        let bitmap = try Bitmap(width: size, height: size, format: .rgba8, alpha: .opaque, pixels: pixels)
        return try PNGEncoder(compressionLevel: 1).encode(bitmap, iccProfile: nil)
    }

    private static func contents(_ images: [[String: String]], tags: [String] = []) -> [UInt8] {
        var document: [String: Any] = ["images": images, "info": ["author": "xcode", "version": 1]]
        if !tags.isEmpty { document["properties"] = ["on-demand-resource-tags": tags] }
        return Array(try! JSONSerialization.data(withJSONObject: document, options: [.sortedKeys]))
    }

    /// One universal set with its 3x file only, and empty 1x and 2x slots, as Xcode writes it.
    private static func imageSet(_ name: String, in workspace: Workspace, catalog: String = "App/Assets.xcassets",
                                 tags: [String] = [], seed: Int) throws {
        let folder = "\(catalog)/\(name).imageset"
        try workspace.write(try png(48, seed: seed), as: "\(folder)/\(name)@3x.png")
        try workspace.write(contents([["idiom": "universal", "scale": "1x"], ["idiom": "universal", "scale": "2x"],
                                      ["filename": "\(name)@3x.png", "idiom": "universal", "scale": "3x"]], tags: tags),
                            as: "\(folder)/Contents.json")
    }

    private static func colorSet(_ name: String, in workspace: Workspace, tags: [String] = []) throws {
        var document: [String: Any] = ["colors": [["idiom": "universal", "color": ["color-space": "srgb",
                                                                                   "components": ["red": "1.000", "green": "0.500", "blue": "0.000", "alpha": "1.000"]]]],
                                       "info": ["author": "xcode", "version": 1]]
        if !tags.isEmpty { document["properties"] = ["on-demand-resource-tags": tags] }
        try workspace.write(Array(try JSONSerialization.data(withJSONObject: document, options: [.sortedKeys])),
                            as: "App/Assets.xcassets/\(name).colorset/Contents.json")
    }

    private static func layOut(_ workspace: Workspace) throws {
        try workspace.write(Array(#"{"info":{"author":"xcode","version":1}}"#.utf8), as: "App/Assets.xcassets/Contents.json")
        try imageSet("Logo", in: workspace, seed: 1)
        try imageSet("Level", in: workspace, tags: ["level1"], seed: 2)
        try imageSet("Boss", in: workspace, seed: 3)
        try imageSet("Keep", in: workspace, tags: ["level1"], seed: 4)
        try colorSet("AccentColor", in: workspace, tags: ["level1"])
        try colorSet("WidgetBackground", in: workspace)
    }

    private static func pipeline(untagged: String = "app") -> String {
        """
        version: 1
        name: split
        app:
          keep-in-app: ["Keep"]
          tags:
            "Boss*": [bosses]
            "Nothing*": [ghosts]
        stages:
          decode:
          downscale:
          slice:
            devices: ["iPhone15,2", "iPhone12,1"]
          pack:
            untagged: \(untagged)
          manifest:
        """
    }

    private static func build(_ workspace: Workspace, untagged: String = "app", input: String? = nil) async throws -> (BuildOutcome, Manifest) {
        let definition = try PipelineFileReader.parse(pipeline(untagged: untagged), file: "split.yml")
        let outcome = try await PipelineRunner.run(BuildRequest(definition: definition, inputFolder: input ?? workspace.input,
                                                                outputFolder: "\(workspace.root)/out-\(untagged)"))
        return (outcome, try ManifestWriter.read(from: outcome.manifestPath))
    }

    @Test("by default untagged sets stay in the app, written for Xcode with their missing scales; tagged sets are in packs only; the OS's colours stay whatever their tags")
    func defaultSplit() async throws {
        let workspace = try Workspace()
        try Self.layOut(workspace)
        let (outcome, manifest) = try await Self.build(workspace)
        #expect(outcome.exitStatus == 0, "\(outcome.report.failures.map(\.message))")
        let out = "\(workspace.root)/out-app"
        let app = Set(manifest.app?.map(\.path) ?? [])
        let bundled = Set(manifest.bundles.flatMap(\.entries))
        // Untagged: in the app, in no bundle, and no base pack at all.
        let logo = "app/App/Assets.xcassets/Logo.imageset"
        #expect(["Logo.png", "Logo@2x.png", "Logo@3x.png", "Contents.json"].allSatisfy { app.contains("\(logo)/\($0)") }, "\(app.sorted())")
        #expect(!bundled.contains { $0.contains("Logo") } && !manifest.packs.contains { $0.id == "base" })
        // The 3x is the source, byte for byte; the 1x and 2x are made from it (16 and 32 px).
        #expect(try ContentHash.ofFile(at: "\(out)/\(logo)/Logo@3x.png")
            == ContentHash.ofFile(at: "\(workspace.input)/App/Assets.xcassets/Logo.imageset/Logo@3x.png"))
        for (file, side) in [("Logo.png", 16), ("Logo@2x.png", 32)] {
            let image = try ImageDecoders.decode(try SourceBytes(contentsOfFile: "\(out)/\(logo)/\(file)"))
            #expect(image.bitmap.width == side && image.bitmap.height == side, "\(file)")
        }
        // The rewritten description names each scale's file and keeps the rest as written.
        let written = try #require(try JSONSerialization.jsonObject(with: Data(contentsOf: URL(fileURLWithPath: "\(out)/\(logo)/Contents.json"))) as? [String: Any])
        let images = try #require(written["images"] as? [[String: String]])
        #expect(images == [["filename": "Logo.png", "idiom": "universal", "scale": "1x"],
                           ["filename": "Logo@2x.png", "idiom": "universal", "scale": "2x"],
                           ["filename": "Logo@3x.png", "idiom": "universal", "scale": "3x"]])
        #expect((written["info"] as? [String: Any])?["author"] as? String == "xcode")
        #expect(app.contains("app/App/Assets.xcassets/Contents.json"))
        // Tagged (by the catalog, or by the pipeline's tag rule): in packs only.
        #expect(bundled.contains { $0.contains("Level") } && !app.contains { $0.contains("Level") })
        #expect(bundled.contains { $0.contains("Boss") } && !app.contains { $0.contains("Boss") })
        #expect(manifest.packs.contains { $0.tags == ["bosses"] })
        // Tagged and named by keep-in-app: the tag wins, and the build says so.
        #expect(bundled.contains { $0.contains("Keep") } && !app.contains { $0.contains("Keep") })
        let warnings = outcome.report.warnings.map(\.reason)
        #expect(warnings.contains { $0.contains("'Keep' is tagged level1 and named by keep-in-app (Keep)") }, "\(warnings)")
        // The accent colour stays in the app though tagged; so does the widget background.
        #expect(app.contains("app/App/Assets.xcassets/AccentColor.colorset/Contents.json"))
        #expect(app.contains("app/App/Assets.xcassets/WidgetBackground.colorset/Contents.json"))
        #expect(!bundled.contains { $0.contains("AccentColor") || $0.contains("WidgetBackground") })
        #expect(warnings.contains { $0.contains("'AccentColor' is tagged level1, but the OS reads it before any pack can download") })
        // A tag rule that matches nothing is named at its line.
        #expect(outcome.report.warnings.contains { $0.file == "split.yml:7:5" && $0.reason.contains("'app.tags.Nothing*': the glob matches no asset") },
                "\(outcome.report.warnings.map { "\($0.file): \($0.reason)" })")
        // Each device's share of the app: the Logo variant at its scale, and the colours.
        let report = SizeReport.make(manifest)
        for (device, file) in [("iPhone15,2", "Logo@3x.png"), ("iPhone12,1", "Logo@2x.png")] {
            let share = try #require(manifest.appShares?.first { $0.device == device })
            let logoShare = try #require(share.assets.first { $0.asset == "Logo" })
            let bytes = try #require(FileManager.default.attributesOfItem(atPath: "\(out)/\(logo)/\(file)")[.size] as? Int)
            #expect(logoShare.bytes == bytes, "\(device)")
            #expect(share.assets.contains { $0.asset == "AccentColor" } && share.assets.contains { $0.asset == "WidgetBackground" })
            let sizes = try #require(report.devices.first { $0.device == device })
            #expect(sizes.app.bytes == share.bytes && sizes.install.bytes >= share.bytes)
            #expect(sizes.assets.contains { $0.asset == "Logo" && $0.pack == SizeReport.appPack })
        }
    }

    @Test("untagged: pack puts untagged sets in the base pack and keeps only what the OS reads in the app")
    func packMode() async throws {
        let workspace = try Workspace()
        try Self.layOut(workspace)
        let (outcome, manifest) = try await Self.build(workspace, untagged: "pack")
        #expect(outcome.exitStatus == 0, "\(outcome.report.failures.map(\.message))")
        let app = Set(manifest.app?.map(\.path) ?? [])
        #expect(manifest.packs.contains { $0.id == "base" && $0.category == .initialInstall })
        #expect(manifest.bundles.filter { $0.pack == "base" }.flatMap(\.entries).contains { $0.contains("Logo") })
        #expect(!app.contains { $0.contains("Logo") })
        #expect(app.contains("app/App/Assets.xcassets/AccentColor.colorset/Contents.json"))
    }

    @Test("a broken untagged image is refused with its error, and nothing of it reaches the app")
    func brokenInAppImage() async throws {
        let workspace = try Workspace()
        try Self.layOut(workspace)
        try FileManager.default.removeItem(atPath: "\(workspace.input)/App/Assets.xcassets/Logo.imageset/Logo@3x.png")
        try workspace.add("still/pillow/broken/truncated_image.png", as: "App/Assets.xcassets/Logo.imageset/Logo@3x.png")
        let (outcome, manifest) = try await Self.build(workspace)
        #expect(outcome.exitStatus == 1)
        #expect(outcome.report.failures.contains { $0.file.hasSuffix("Logo.imageset/Logo@3x.png") }, "\(outcome.report.failures.map(\.message))")
        #expect(!(manifest.app ?? []).contains { $0.path.contains("Logo") })
        #expect(!FileManager.default.fileExists(atPath: "\(workspace.root)/out-app/app/App/Assets.xcassets/Logo.imageset"))
    }

    @Test("the input root's tessera.yml tags catalog sets, the catalog given as --input or found under a folder")
    func tagFileReachesCatalogs() throws {
        let workspace = try Workspace()
        try Self.layOut(workspace)
        let rules = Array("tags:\n  \"Log*\": [brand]\n  \"Gone\": [x]\n".utf8)
        try workspace.write(rules, as: "tessera.yml")
        try workspace.write(rules, as: "App/Assets.xcassets/tessera.yml")
        for root in [workspace.input, "\(workspace.input)/App/Assets.xcassets"] {
            let read = try FolderCatalogReader().read(root: root)
            let logo = try #require(read.assets.first { $0.name.name.hasSuffix("Logo") })
            #expect(logo.tags == ["brand"], "\(root)")
            #expect(read.assets.first { $0.name.name.hasSuffix("Level") }?.tags == ["level1"])
            #expect(read.problems.contains { $0.file == "tessera.yml:3:3" && $0.key == "tags.Gone" && $0.reason.contains("matches no asset") && !$0.isError },
                    "\(read.problems)")
        }
    }

    @Test("one catalog in several targets is every one of their devices': targets[].input takes a list")
    func sharedCatalog() throws {
        let definition = try PipelineFileReader.parse("""
            version: 1
            name: shared
            targets:
              - name: App
                input: [App/Assets.xcassets, Shared/Assets.xcassets]
                devices: ["iPhone15,2"]
              - name: Watch
                input: [Watch/Assets.xcassets, Shared/Assets.xcassets]
                devices: ["Watch7,2"]
            stages:
              decode:
              slice:
                devices: []
              manifest:
            """, file: "shared.yml")
        #expect(definition.targets.map(\.inputs) == [["App/Assets.xcassets", "Shared/Assets.xcassets"],
                                                     ["Watch/Assets.xcassets", "Shared/Assets.xcassets"]])
        func asset(_ file: String) -> CatalogAsset {
            CatalogAsset(name: AssetID("x"), kind: .image, entries: [CatalogEntry(file: file, traits: VariantTraits(), format: .png)],
                         tags: [], contentsFile: nil)
        }
        let membership = TargetMembership(targets: definition.targets, sharedDevices: [])
        let shared = asset("Shared/Assets.xcassets/Star.imageset/star.png")
        #expect(membership.device("iPhone15,2", ships: shared) && membership.device("Watch7,2", ships: shared))
        let own = asset("Watch/Assets.xcassets/Face.imageset/face.png")
        #expect(!membership.device("iPhone15,2", ships: own) && membership.device("Watch7,2", ships: own))
    }

    @Test("a pull request adding a 2 MB untagged image fails --max-install-growth 100KB (exit 3): the app grew")
    func untaggedGrowthFailsTheGate() async throws {
        let workspace = try Workspace()
        try Self.layOut(workspace)
        _ = try await Self.build(workspace)
        try FileManager.default.moveItem(atPath: "\(workspace.root)/out-app", toPath: "\(workspace.root)/before")
        let big = try Self.png(840, seed: 9, noisy: true)
        #expect(big.count > 2_000_000)
        try workspace.write(big, as: "App/Assets.xcassets/Hero.imageset/Hero@3x.png")
        try workspace.write(Self.contents([["filename": "Hero@3x.png", "idiom": "universal", "scale": "3x"]]),
                            as: "App/Assets.xcassets/Hero.imageset/Contents.json")
        let (after, manifest) = try await Self.build(workspace)
        #expect(after.exitStatus == 0)
        #expect(manifest.bundles.allSatisfy { !$0.entries.contains { $0.contains("Hero") } }, "untagged: no pack grew")
        let gate = try await TesseraProcess.run(["report", "\(workspace.root)/out-app", "--against", "\(workspace.root)/before",
                                           "--max-install-growth", "100KB", "--output", "\(workspace.root)/report"])
        #expect(gate.status == 3, "\(gate.stderr)")
        #expect(gate.stderr.contains("error: over budget: install grew from ") && gate.stderr.contains("most of it asset Hero")
                && gate.stderr.contains("over max-install-growth 100 KB"), "\(gate.stderr)")
    }

    @Test("an Android XML drawable sharing its name with tagged bitmaps stays in res/ and in no pack; the bitmaps go to theirs")
    func xmlDrawableBesideTaggedBitmaps() async throws {
        let workspace = try Workspace()
        try workspace.write(try Self.png(48, seed: 5), as: "res/drawable-xhdpi/logo.png")
        try workspace.write(try Self.png(72, seed: 5), as: "res/drawable-xxhdpi/logo.png")
        // In `drawable-v24` (mdpi): an `anydpi` one would be what every current Android draws, and
        // no bitmap would ship (AndroidPrecedenceTests); at mdpi the bitmaps win on these buckets.
        try workspace.write(Array("<vector xmlns:android=\"http://schemas.android.com/apk/res/android\"/>\n".utf8),
                            as: "res/drawable-v24/logo.xml")
        try workspace.write(Array("tags:\n  \"res/logo\": [level1]\n".utf8), as: "tessera.yml")
        let definition = try PipelineFileReader.parse("""
            version: 1
            name: xml
            stages:
              decode:
              slice:
                devices: ["android-xhdpi", "android-xxhdpi"]
              pack:
              manifest:
            """, file: "xml.yml")
        let outcome = try await PipelineRunner.run(BuildRequest(definition: definition, inputFolder: workspace.input,
                                                                outputFolder: "\(workspace.root)/out"))
        #expect(outcome.exitStatus == 0, "\(outcome.report.failures.map(\.message))")
        let manifest = try ManifestWriter.read(from: outcome.manifestPath)
        let bundled = manifest.bundles.flatMap(\.entries)
        #expect(bundled.contains { $0.hasSuffix(".png") && $0.contains("logo") }, "\(bundled)")
        #expect(!bundled.contains { $0.hasSuffix(".xml") }, "\(bundled)")
        #expect(manifest.app?.contains { $0.path == "app/res/drawable-v24/logo.xml" } == true, "\(manifest.app?.map(\.path) ?? [])")
    }
}
