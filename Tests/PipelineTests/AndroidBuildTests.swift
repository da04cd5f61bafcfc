import Delivery
import Foundation
import Manifests
import Pipeline
import TestServers
import TestSupport
import Testing
import TesseraCore

@Suite("Android builds")
struct AndroidBuildTests {
    @Test("copies keep the drawable-<qualifiers>/ layout; XML drawables of one name in two folders are both carried; slices name the kept paths")
    func layoutIsKept() async throws {
        let workspace = try Workspace()
        for (folder, file) in [("drawable", "png/pngsuite/basn2c08.png"), ("drawable-xhdpi", "png/pngsuite/basn6a08.png"),
                               ("drawable-night-xhdpi", "png/pngsuite/basn0g08.png"),
                               ("drawable-xxhdpi-v26", "png/pngsuite/basn3p08.png")] {
            try workspace.add(file, as: "res/\(folder)/logo.png")
        }
        try workspace.write(Array("<vector android:name=\"v24\"/>".utf8), as: "res/drawable-v24/badge.xml")
        try workspace.write(Array("<shape/>".utf8), as: "res/drawable/badge.xml")
        let definition = try PipelineFileReader.read(path: "\(Workspace.packageRoot)/Pipelines/android.yml")
        let output = "\(workspace.root)/out"
        let outcome = try await PipelineRunner.run(BuildRequest(definition: definition, inputFolder: workspace.input,
                                                                outputFolder: output))
        #expect(outcome.exitStatus == 0, "\(outcome.report.failures.map(\.message))")
        let manifest = try ManifestWriter.read(from: outcome.manifestPath)
        let paths = manifest.assets.flatMap { $0.variants.map(\.path) }.sorted()
        #expect(paths == ["variants/res/drawable-night-xhdpi/logo.png", "variants/res/drawable-xhdpi/logo.png",
                          "variants/res/drawable-xxhdpi-v26/logo.png", "variants/res/drawable/logo.png"])
        for (kept, source) in [("variants/res/drawable-xhdpi/logo.png", "res/drawable-xhdpi/logo.png"),
                               ("variants/res/drawable/logo.png", "res/drawable/logo.png")] {
            #expect(FileManager.default.contents(atPath: "\(output)/\(kept)")
                    == FileManager.default.contents(atPath: "\(workspace.input)/\(source)"))
        }
        #expect(manifest.data.map(\.path).sorted() == ["data/res/drawable-v24/badge.xml", "data/res/drawable/badge.xml"])
        #expect(FileManager.default.contents(atPath: "\(output)/data/res/drawable-v24/badge.xml")
                == Data("<vector android:name=\"v24\"/>".utf8))
        let slice = try String(contentsOfFile: "\(output)/slices/android-xhdpi.json", encoding: .utf8)
        #expect(slice.contains("\"variants/res/drawable-xhdpi/logo.png\""))
    }

    @Test("a drawable with a launcher icon's densities is still thinned to each bucket's: only mipmaps ship at every density")
    func drawablesDoNotTakeLauncherDecisions() async throws {
        let workspace = try Workspace()
        for density in ["mdpi", "hdpi", "xhdpi"] {
            // Same densities, same files' order: the two assets once had one selection shape.
            try workspace.add("png/pngsuite/basn6a08.png", as: "res/mipmap-\(density)/ic_launcher.png")
            try workspace.add("png/pngsuite/basn2c08.png", as: "res/drawable-\(density)/icon.png")
        }
        let definition = try PipelineFileReader.read(path: "\(Workspace.packageRoot)/Pipelines/android.yml")
        let output = "\(workspace.root)/out"
        let outcome = try await PipelineRunner.run(BuildRequest(definition: definition, inputFolder: workspace.input, outputFolder: output))
        #expect(outcome.exitStatus == 0, "\(outcome.report.failures.map(\.message))")
        struct Slice: Decodable { struct Row: Decodable { let asset: String; let path: String?; let reason: String }; let assets: [Row] }
        let slice = try JSONDecoder().decode(Slice.self, from: Data(contentsOf: URL(fileURLWithPath: "\(output)/slices/android-mdpi.json")))
        #expect(slice.assets.filter { $0.asset == "res/icon" }.compactMap(\.path) == ["variants/res/drawable-mdpi/icon.png"],
                "\(slice.assets.map { "\($0.asset) \($0.path ?? "-"): \($0.reason)" })")
        #expect(slice.assets.filter { $0.asset == "res/ic_launcher" }.count == 3)
    }

    @Test("drawable/ and drawable-mdpi/ holding one name: the explicit density is shipped, and the warning says why, not that an unread qualifier sets them apart")
    func explicitDensityWins() async throws {
        let workspace = try Workspace()
        try workspace.add("png/pngsuite/basn2c08.png", as: "res/drawable/logo.png")
        try workspace.add("png/pngsuite/basn6a08.png", as: "res/drawable-mdpi/logo.png")
        let definition = try PipelineFileReader.read(path: "\(Workspace.packageRoot)/Pipelines/android.yml")
        let outcome = try await PipelineRunner.run(BuildRequest(definition: definition, inputFolder: workspace.input,
                                                                outputFolder: "\(workspace.root)/out"))
        let manifest = try ManifestWriter.read(from: outcome.manifestPath)
        #expect(manifest.assets.flatMap { $0.variants.map(\.source) } == ["res/drawable-mdpi/logo.png"])
        let warning = try #require(outcome.report.warnings.first { $0.file.hasSuffix("res/drawable/logo.png") })
        #expect(warning.reason.contains("a folder without a density is mdpi") && warning.reason.contains("Android uses the explicit one")
                && !warning.reason.contains("a qualifier Tessera does not read"), "\(warning.reason)")
    }

    @Test("a drawable-nodpi image is copied as it is, at every density, with no warning about scales it lacks")
    func densityIndependentImagesAreCopied() async throws {
        let workspace = try Workspace()
        try workspace.add("png/pngsuite/basn2c08.png", as: "res/drawable-nodpi/banner.png")
        try workspace.add("png/pngsuite/basn6a08.png", as: "res/drawable-xhdpi/logo.png")
        let definition = try PipelineFileReader.read(path: "\(Workspace.packageRoot)/Pipelines/android.yml")
        let output = "\(workspace.root)/out"
        let outcome = try await PipelineRunner.run(BuildRequest(definition: definition, inputFolder: workspace.input,
                                                                outputFolder: output))
        #expect(outcome.exitStatus == 0, "\(outcome.report.failures.map(\.message))")
        #expect(outcome.report.warnings.isEmpty, "\(outcome.report.warnings.map(\.message))")
        let manifest = try ManifestWriter.read(from: outcome.manifestPath)
        #expect(manifest.assets.flatMap { $0.variants.map(\.path) }.sorted()
                == ["variants/res/drawable-nodpi/banner.png", "variants/res/drawable-xhdpi/logo.png"])
        #expect(FileManager.default.contents(atPath: "\(output)/variants/res/drawable-nodpi/banner.png")
                == FileManager.default.contents(atPath: "\(workspace.input)/res/drawable-nodpi/banner.png"))
        for density in ["android-mdpi", "android-xxxhdpi"] {
            let slice = try String(contentsOfFile: "\(output)/slices/\(density).json", encoding: .utf8)
            #expect(slice.contains("\"variants/res/drawable-nodpi/banner.png\""), "\(density)")
        }
    }

    @Test("a bundletool device spec at 420 dpi is answered with the xxhdpi bundles, as Google Play serves it; a land folder ships beside the unqualified one")
    func deviceSpecQueryEndToEnd() async throws {
        let workspace = try Workspace()
        try workspace.add("png/pngsuite/basn6a08.png", as: "res/drawable-xhdpi/logo.png")
        try workspace.add("png/pngsuite/basn2c08.png", as: "res/drawable-xxhdpi/logo.png")
        try workspace.add("png/pngsuite/basn0g08.png", as: "res/drawable-land-xxhdpi/logo.png")
        let definition = try PipelineFileReader.read(path: "\(Workspace.packageRoot)/Pipelines/android.yml")
        let output = "\(workspace.root)/out"
        let outcome = try await PipelineRunner.run(BuildRequest(definition: definition, inputFolder: workspace.input,
                                                                outputFolder: output))
        #expect(outcome.exitStatus == 0)
        // The device picks the landscape file at run time: both ship, neither hides the other.
        #expect(outcome.report.warnings.map(\.reason) == [
            "qualifier 'land' is chosen by the device at run time, not by Google Play: its files ship beside the unqualified ones to every device of their density",
        ])
        let slice = try String(contentsOfFile: "\(output)/slices/android-xxhdpi.json", encoding: .utf8)
        #expect(slice.contains("\"variants/res/drawable-xxhdpi/logo.png\"") && slice.contains("\"variants/res/drawable-land-xxhdpi/logo.png\""))
        // bundletool's own spec shape (`bundletool get-device-spec`).
        try workspace.write(Array(#"{"supportedAbis":["arm64-v8a"],"supportedLocales":["en-US"],"screenDensity":420,"sdkVersion":34}"#.utf8),
                            as: "pixel.json")
        let spec = try await TesseraProcess.run(["query", "\(output)/manifest.json", "--device-spec", "\(workspace.input)/pixel.json", "--json"])
        #expect(spec.status == 0, "\(spec.stderr)")
        #expect(spec.stderr.contains("using android-xxhdpi (480 dpi)"))
        let bucket = try await TesseraProcess.run(["query", "\(output)/manifest.json", "--device", "android-xxhdpi", "--json"])
        let answer = try #require(try JSONSerialization.jsonObject(with: Data(spec.stdout.utf8)) as? [String: Any])
        let direct = try #require(try JSONSerialization.jsonObject(with: Data(bucket.stdout.utf8)) as? [String: Any])
        #expect((answer["bundles"] as? [[String: Any]])?.map { $0["sha256"] as? String }
                == (direct["bundles"] as? [[String: Any]])?.map { $0["sha256"] as? String })
    }

    @Test("an anydpi-v26 vector beside tagged density PNGs: no bucket's slice, bundle or Play pack holds the PNGs (a current Android draws the vector, kept in res/); an API 25 device spec is sliced the PNG")
    func anydpiVectorWinsOverDensityBitmaps() async throws {
        let workspace = try Workspace()
        try workspace.add("png/pngsuite/basn6a08.png", as: "res/drawable-xhdpi/logo.png")
        try workspace.add("png/pngsuite/basn2c08.png", as: "res/drawable-xxhdpi/logo.png")
        try workspace.add("png/pngsuite/basn0g08.png", as: "res/drawable-xxhdpi/photo.png")
        try workspace.write(Array("<vector xmlns:android=\"http://schemas.android.com/apk/res/android\"/>\n".utf8),
                            as: "res/drawable-anydpi-v26/logo.xml")
        try workspace.write(Array("tags:\n  \"res/logo\": [level1]\n  \"res/photo\": [level1]\n".utf8), as: "tessera.yml")
        let definition = try PipelineFileReader.read(path: "\(Workspace.packageRoot)/Pipelines/android.yml")
        let output = "\(workspace.root)/out"
        let outcome = try await PipelineRunner.run(BuildRequest(definition: definition, inputFolder: workspace.input,
                                                                outputFolder: output))
        #expect(outcome.exitStatus == 0, "\(outcome.report.failures.map(\.message))")
        let manifest = try ManifestWriter.read(from: outcome.manifestPath)
        let bundled = manifest.bundles.flatMap(\.entries)
        #expect(bundled.contains { $0.contains("photo") }, "\(bundled)")
        #expect(!bundled.contains { $0.contains("logo") }, "\(bundled)")
        for bucket in ["android-xhdpi", "android-xxhdpi"] {
            let slice = try String(contentsOfFile: "\(output)/slices/\(bucket).json", encoding: .utf8)
            #expect(!slice.contains("logo.png"), "\(bucket)")
        }
        let packed = try FileManager.default.subpathsOfDirectory(atPath: "\(output)/android/asset-packs")
        #expect(packed.contains { $0.hasSuffix("photo.png") } && !packed.contains { $0.hasSuffix("logo.png") }, "\(packed)")
        #expect(manifest.app?.contains { $0.path.hasSuffix("res/drawable-anydpi-v26/logo.xml") } == true)
        // Said once, on the vector: the tagged bitmaps are in no pack.
        let shadowed = outcome.report.warnings.filter { $0.reason.contains("no pack holds the bitmaps") }
        #expect(shadowed.count == 1 && shadowed.first?.file.hasSuffix("res/drawable-anydpi-v26/logo.xml") == true,
                "\(outcome.report.warnings.map(\.message))")
        // `tessera slice` with bundletool's spec of an Android 7.1 phone: the vector does not apply.
        let old = DeviceClass(id: "android-420dpi", name: "spec", platform: .android, idiom: "phone", scale: 3, densityDPI: 420,
                              memoryGB: 4, graphicsFamily: nil, displayGamut: .sRGB, supportsDarkMode: true, androidAPILevel: 25)
        let report = try SliceReport.make(input: workspace.input, device: old)
        #expect(report.assets.filter { $0.asset == "res/logo" }.map(\.source) == ["res/drawable-xxhdpi/logo.png"])
        var current = old
        current.androidAPILevel = 26
        #expect(try SliceReport.make(input: workspace.input, device: current).assets.filter { $0.asset == "res/logo" }.isEmpty)
    }
}
