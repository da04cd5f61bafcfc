import Delivery
import Foundation
import Pipeline
import Slicing
import Testing
import TestSupport
import TesseraCore

@Suite("Slice reports")
struct SliceReportTests {
    let catalogs = "\(Workspace.corpus)/xcassets"

    private func rows(_ catalog: String, _ device: String) throws -> [String: SliceRow] {
        let report = try SliceReport.make(input: "\(catalogs)/\(catalog)/Assets.xcassets",
                                          device: try KnownDevices.device(device))
        #expect(!report.hasErrors)
        return Dictionary(uniqueKeysWithValues: report.assets.map { ($0.asset, $0) })
    }

    @Test("FoodTruckKit on an iPhone 3x, an iPad 2x and a 1x iPhone takes the matching scale")
    func foodTruck() throws {
        let phone = try rows("food-truck/FoodTruckKit", "iPhone15,2")
        #expect(phone["box/Lid"]?.source?.hasSuffix("BoxLid@3x.png") == true && phone["box/Lid"]?.action == "use")
        #expect(phone["box/Lid"]?.width == 2400)
        let pad = try rows("food-truck/FoodTruckKit", "iPad12,1")
        #expect(pad["box/Lid"]?.source?.hasSuffix("BoxLid@2x.png") == true && pad["box/Lid"]?.width == 1600)
        let old = try rows("food-truck/FoodTruckKit", "iPhone2,1")
        #expect(old["box/Lid"]?.source?.hasSuffix("BoxLid.png") == true && old["box/Lid"]?.width == 800)
        #expect(phone["box/Lid"]?.sha256 != nil && phone.count == 22)
    }

    @Test("tessera slice --json speaks the slices/<id>.json row model: assets[], source for the catalog entry, no path")
    func rowModel() throws {
        let report = try SliceReport.make(input: "\(catalogs)/tutsplus-odr/Assets.xcassets",
                                          device: try KnownDevices.device("iPhone15,2"))
        let json = try #require(try JSONSerialization.jsonObject(with: Data(StableJSON.encode(report))) as? [String: Any])
        #expect(json.keys.sorted() == ["assets", "device", "hasErrors", "problems"])
        let row = try #require((json["assets"] as? [[String: Any]])?.first { $0["asset"] as? String == "Blue Circle" })
        #expect(row.keys.sorted() == ["action", "appearance", "asset", "bytes", "height", "reason", "sha256", "source", "tags",
                                      "traits", "width"])
    }

    @Test("tutsplus-odr has only 2x: the 3x iPhone gets it unscaled, the iPad exactly, the 1x iPhone a generated 1x")
    func tutsplus() throws {
        let phone = try rows("tutsplus-odr", "iPhone15,2")
        #expect(phone["Blue Circle"]?.action == "use-smaller" && phone["Blue Circle"]?.tags == ["Blue", "Circle"])
        let pad = try rows("tutsplus-odr", "iPad12,1")
        #expect(pad["Blue Circle"]?.action == "use")
        let old = try rows("tutsplus-odr", "iPhone2,1")
        #expect(old["Blue Circle"]?.action == "downscale" && old["Blue Circle"]?.width == 200 && old["Blue Circle"]?.sha256 == nil)
    }

    @Test("plain folders: @2x~ipad suffixes, drawable density folders and tessera.yml tags")
    func plainFolder() throws {
        let workspace = try Workspace()
        try workspace.add("png/pngsuite/basn2c08.png", as: "icons/star@2x~ipad.png")
        try workspace.add("png/pngsuite/basn2c08.png", as: "icons/star@3x.png")
        try workspace.add("png/pngsuite/basn2c08.png", as: "res/drawable-xhdpi/logo.png")
        try workspace.add("png/pngsuite/basn2c08.png", as: "res/drawable-xxxhdpi/logo.png")
        try workspace.write(Array("tags:\n  \"icons/**\": [starter]\n".utf8), as: "tessera.yml")
        let result = try FolderCatalogReader().read(root: workspace.input)
        let star = try #require(result.assets.first { $0.name.name == "icons/star" })
        #expect(star.tags == ["starter"])
        #expect(star.entries.map { "\($0.traits.idiom) \($0.traits.scale?.description ?? "-")" } == ["ipad 2x", "universal 3x"])
        let logo = try #require(result.assets.first { $0.name.name == "res/logo" })
        #expect(logo.entries.map { $0.traits.densityDPI ?? 0 } == [320, 640])
        let pad = try SliceReport.make(input: workspace.input, device: try KnownDevices.device("iPad12,1"))
        #expect(pad.assets.first { $0.asset == "icons/star" }?.source == "icons/star@2x~ipad.png")
    }

    @Test("a bundletool device spec and a Tessera device class both read; an unknown device lists the closest")
    func deviceSpecs() throws {
        let workspace = try Workspace()
        try workspace.write(Array(#"{"supportedAbis":["arm64-v8a"],"supportedLocales":["en-US"],"screenDensity":480,"sdkVersion":33}"#.utf8),
                            as: "spec.json")
        let android = try KnownDevices.device(specAt: "\(workspace.input)/spec.json")
        #expect(android.densityDPI == 480 && android.platform == .android)
        let encoded = try JSONEncoder().encode(try KnownDevices.device("iPhone15,2"))
        try workspace.write(Array(encoded), as: "apple.json")
        #expect(try KnownDevices.device(specAt: "\(workspace.input)/apple.json").id == "iPhone15,2")
        do {
            _ = try KnownDevices.device("iphone15,3")
            Issue.record("found an unknown device")
        } catch {
            #expect(error.reason.hasPrefix("unknown device 'iphone15,3'; closest known: iPhone15,2"))
        }
    }
}

@Suite("Building catalogs")
struct CatalogBuildTests {
    @Test("the food-truck catalogs build with one warning (the widget's unfilled app icon set): one namespace per target, Mac icon slots copied, the single-size iOS icon made into every iOS slot, colour and symbol sets carried through")
    func foodTruck() async throws {
        let workspace = try Workspace()
        let definition = try PipelineFileReader.read(path: "\(Workspace.packageRoot)/Pipelines/app-thinning.yml")
        let outcome = try await PipelineRunner.run(BuildRequest(
            definition: definition, inputFolder: "\(Workspace.corpus)/xcassets/food-truck",
            outputFolder: "\(workspace.root)/out"))
        #expect(outcome.exitStatus == 0)
        #expect(outcome.report.warnings.map(\.reason)
            == ["the app icon set 'AppIcon' names no image file (every slot is empty): nothing is built for it"])
        #expect(outcome.report.warnings.first?.file.hasSuffix("food-truck/Widgets/Assets.xcassets/AppIcon.appiconset/Contents.json") == true)
        let manifest = try #require(outcome.manifest)
        // App and Widgets both have an AppIcon and an AccentColor: each target keeps its own.
        let icons = manifest.assets.filter { $0.name.name.hasPrefix("App/AppIcon~") }
        let copied = icons.filter { $0.name.name.contains("~mac") || $0.name.name.contains("1024x1024") }
        #expect(copied.count == 6 && copied.allSatisfy { $0.variants.allSatisfy { !$0.generated } })
        let phoneSlot = try #require(icons.first { $0.name.name == "App/AppIcon~60x60" })
        #expect(phoneSlot.variants.map { "\($0.scale) \($0.width)x\($0.height) \($0.generated)" }
            == ["2x 120x120 true", "3x 180x180 true"])
        let iPadProSlot = try #require(icons.first { $0.name.name == "App/AppIcon~83.5x83.5" })
        #expect(iPadProSlot.variants.map(\.width) == [167])
        #expect(manifest.data.contains { $0.path == "data/Widgets/AccentColor.color/Contents.json" })
        #expect(manifest.data.contains { $0.path == "data/App/AccentColor.color/Contents.json" })
        #expect(manifest.data.filter { $0.kind == "color" }.count == 20)
        #expect(manifest.data.contains { $0.path == "data/FoodTruckKit/bitter.symbol/bitter.svg" })
        let lid = try #require(manifest.assets.first { $0.name.name == "FoodTruckKit/box/Lid" })
        #expect(lid.variants.map(\.generated) == [false, false, false])
        // Slices point at built files.
        let slice = try String(contentsOfFile: "\(workspace.root)/out/slices/iPad12,1.json", encoding: .utf8)
        #expect(slice.contains("\"path\" : \"variants/FoodTruckKit/box/Lid@2x.png\""))
    }
}
