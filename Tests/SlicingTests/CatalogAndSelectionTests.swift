import Foundation
import Pipeline
import Slicing
import Testing
import TesseraCore

@Suite("Asset catalogs")
struct AssetCatalogTests {
    let catalogs = "\(Workspace.corpus)/xcassets"

    @Test("every corpus catalog reads with no problems")
    func noSpuriousProblems() {
        for path in ["food-truck/FoodTruckKit", "food-truck/App", "food-truck/Widgets", "tutsplus-odr"] {
            let result = AssetCatalogReader().read(catalogPath: "\(catalogs)/\(path)/Assets.xcassets", relativeTo: catalogs)
            #expect(result.problems.isEmpty, "\(path): \(result.problems)")
            #expect(!result.assets.isEmpty)
        }
    }

    @Test("FoodTruckKit: namespaces from provides-namespace groups only, spaces kept, 1x/2x/3x, colour and symbol sets")
    func foodTruckKit() {
        let result = AssetCatalogReader().read(catalogPath: "\(catalogs)/food-truck/FoodTruckKit/Assets.xcassets",
                                               relativeTo: catalogs)
        let names = Set(result.assets.map(\.name.name))
        #expect(result.assets.filter { $0.kind == .image }.count == 22)
        #expect(result.assets.filter { $0.kind == .color }.count == 10)
        #expect(result.assets.filter { $0.kind == .symbol }.count == 6)
        #expect(names.contains("box/Lid") && names.contains("header/truck/Frame 1") && names.contains("dough/pink-thumb"))
        #expect(!names.contains { $0.hasPrefix("donut/") || $0.hasPrefix("flavors/") })
        let lid = result.assets.first { $0.name.name == "box/Lid" }!
        #expect(lid.entries.map { $0.traits.scale?.factor ?? 0 } == [1, 2, 3])
    }

    @Test("tutsplus-odr: two tags on nine sets, only the 2x slot filled, a file named differently from its set")
    func tutsplus() {
        let result = AssetCatalogReader().read(catalogPath: "\(catalogs)/tutsplus-odr/Assets.xcassets", relativeTo: catalogs)
        let images = result.assets.filter { $0.kind == .image }
        #expect(images.count == 12)
        #expect(images.filter { $0.tags.count == 2 }.count == 9)
        #expect(images.first { $0.name.name == "Blue Circle" }?.tags == ["Blue", "Circle"])
        #expect(images.allSatisfy { $0.entries.count == 1 && $0.entries[0].traits.scale == .x2 })
        #expect(images.first { $0.name.name == "Blue Star" }?.entries[0].file.hasSuffix("Blur Star.png") == true)
    }

    @Test("malformed JSON, a missing file, an unknown key and a bad value are reported; valid assets survive")
    func problems() throws {
        let workspace = try Workspace()
        let catalog = "\(workspace.input)/Bad.xcassets"
        try workspace.add("png/pngsuite/basn2c08.png", as: "Bad.xcassets/good.imageset/good.png")
        try workspace.write(Array(#"{"images":[{"filename":"good.png","idiom":"universal","scale":"2x"}],"info":{"version":1}}"#.utf8),
                            as: "Bad.xcassets/good.imageset/Contents.json")
        try workspace.write(Array(#"{"images":[{"filename":"gone.png","idiom":"universal"},{"idiom":"universal","scale":"3x"}]}"#.utf8),
                            as: "Bad.xcassets/missing.imageset/Contents.json")
        try workspace.write(Array(#"{"images": [ "#.utf8), as: "Bad.xcassets/broken.imageset/Contents.json")
        try workspace.add("png/pngsuite/basn2c08.png", as: "Bad.xcassets/odd.imageset/odd.png")
        try workspace.write(Array(#"{"images":[{"filename":"odd.png","idoim":"universal","memory":"lots"}]}"#.utf8),
                            as: "Bad.xcassets/odd.imageset/Contents.json")
        let result = AssetCatalogReader().read(catalogPath: catalog, relativeTo: workspace.input)
        let lines = result.problems.map(\.description)
        #expect(lines.contains("Bad.xcassets/missing.imageset/Contents.json: error: 'images[0].filename': 'gone.png' does not exist"))
        #expect(lines.contains { $0.hasPrefix("Bad.xcassets/broken.imageset/Contents.json: error: malformed JSON") })
        #expect(lines.contains("Bad.xcassets/odd.imageset/Contents.json: warning: 'images[0].idoim': unknown key"))
        #expect(lines.contains("Bad.xcassets/odd.imageset/Contents.json: error: 'images[0].memory': 'lots' is not a memory class like 2GB"))
        #expect(result.assets.first { $0.name.name == "good" }?.entries.count == 1)
        // The empty 3x slot is not a problem.
        #expect(!lines.contains { $0.contains("images[1]") })
    }
}

@Suite("Variant selection")
struct VariantSelectionTests {
    private func entry(_ file: String, idiom: String = "universal", scale: Int? = nil, memory: Int? = nil,
                       graphics: String? = nil, gamut: DisplayGamut? = nil, appearances: [String] = [],
                       dpi: Int? = nil) -> CatalogEntry {
        var traits = VariantTraits(idiom: idiom, scale: scale.flatMap { DisplayScale(factor: $0) })
        traits.memoryGB = memory
        traits.graphicsFeatureSet = graphics
        traits.displayGamut = gamut
        traits.appearances = appearances
        traits.densityDPI = dpi
        return CatalogEntry(file: file, traits: traits)
    }

    private func pick(_ entries: [CatalogEntry], _ device: String) throws -> [String] {
        let asset = CatalogAsset(name: AssetID("a"), kind: .image, entries: entries, tags: [], contentsFile: nil)
        return VariantSelector.select(asset, for: try DeviceCatalog.device(device)).map { "\($0.appearance.rawValue):\($0.action.rawValue):\($0.entry.file)" }
    }

    @Test("the rule, trait by trait, with every fallback", arguments: [
        // Idiom: exact beats universal; other idioms never match.
        ("idiom", ["u2:universal:2", "i2:iphone:2", "p2:ipad:2"], "iPhone12,1", ["any:use:i2"]),
        ("idiom fallback", ["u2:universal:2", "p2:ipad:2"], "iPhone12,1", ["any:use:u2"]),
        ("no idiom", ["p2:ipad:2"], "iPhone12,1", []),
        // Scale: exact, any-scale, nearest larger (downscaled), nearest smaller (warned).
        ("exact scale", ["u1:universal:1", "u2:universal:2", "u3:universal:3"], "iPad12,1", ["any:use:u2"]),
        ("any scale", ["v:universal:0", "u3:universal:3"], "iPad12,1", ["any:use:v"]),
        ("larger", ["u3:universal:3", "u1:universal:1"], "iPad12,1", ["any:downscale:u3"]),
        ("smaller", ["u1:universal:1", "u2:universal:2"], "iPhone15,2", ["any:use-smaller:u2"]),
    ])
    func rule(name: String, specs: [String], device: String, expected: [String]) throws {
        let entries = specs.map { spec -> CatalogEntry in
            let parts = spec.split(separator: ":").map(String.init)
            let scale = Int(parts[2]) ?? 0
            return entry(parts[0], idiom: parts[1], scale: scale == 0 ? nil : scale)
        }
        #expect(try pick(entries, device) == expected, "\(name)")
    }

    @Test("memory and graphics requirements: the highest met wins; unmet ones are dropped")
    func requirements() throws {
        let entries = [entry("base", scale: 2), entry("2gb", scale: 2, memory: 2), entry("4gb", scale: 2, memory: 4),
                       entry("4gb-a8", scale: 2, memory: 4, graphics: "apple8")]
        #expect(try pick(entries, "iPhone8,1") == ["any:use:2gb"])    // 2 GB
        #expect(try pick(entries, "iPhone12,1") == ["any:use:4gb"])   // 4 GB, apple6
        #expect(try pick(entries, "iPad14,1") == ["any:use:4gb-a8"])  // 4 GB, apple8 (2x)
        #expect(try pick(entries, "iPhone6,1") == ["any:use:base"])   // 1 GB
    }

    @Test("display-P3 only on P3 devices, where it wins")
    func gamut() throws {
        let entries = [entry("srgb", scale: 2, gamut: .sRGB), entry("p3", scale: 2, gamut: .displayP3)]
        #expect(try pick(entries, "iPhone12,1") == ["any:use:p3"])
        #expect(try pick(entries, "iPhone10,1") == ["any:use:p3"])  // iPhone 8 is P3
        #expect(try pick(entries, "iPhone8,1") == ["any:use:srgb"])  // iPhone 6s is sRGB
        #expect(try pick(entries, "iPad12,1") == ["any:use:srgb"])  // iPad 9 is sRGB
        #expect(try pick([entry("p3only", scale: 2, gamut: .displayP3)], "iPad12,1") == [])
    }

    @Test("dark appearance variants go to devices that support dark mode, in addition to the default")
    func appearances() throws {
        let entries = [entry("light", scale: 2), entry("dark", scale: 2, appearances: ["dark"])]
        #expect(try pick(entries, "iPhone12,1") == ["any:use:light", "dark:use:dark"])
        #expect(try pick(entries, "iPhone6,1") == ["any:use:light"])
    }

    @Test("Android densities follow bundletool: closer wins, scaling down counts twice as good")
    func densities() throws {
        let entries = [entry("drawable-xhdpi/logo.png", dpi: 320), entry("drawable-xxxhdpi/logo.png", dpi: 640),
                       entry("drawable-mdpi/logo.png", dpi: 160)]
        #expect(try pick(entries, "android-xxhdpi") == ["any:use:drawable-xxxhdpi/logo.png"])  // 160 up vs 2×160 down
        #expect(try pick(entries, "android-xhdpi") == ["any:use:drawable-xhdpi/logo.png"])
        #expect(try pick(entries, "android-hdpi") == ["any:use:drawable-xhdpi/logo.png"])      // 80 up vs 2×80 down
        #expect(try pick(entries, "android-ldpi") == ["any:use:drawable-mdpi/logo.png"])
    }
}

@Suite("Slice reports")
struct SliceReportTests {
    let catalogs = "\(Workspace.corpus)/xcassets"

    private func rows(_ catalog: String, _ device: String) throws -> [String: SliceReport.Row] {
        let report = try SliceReport.make(input: "\(catalogs)/\(catalog)/Assets.xcassets",
                                          device: try DeviceCatalog.device(device))
        #expect(!report.hasErrors)
        return Dictionary(uniqueKeysWithValues: report.rows.map { ($0.asset, $0) })
    }

    @Test("FoodTruckKit on an iPhone 3x, an iPad 2x and a 1x iPhone takes the matching scale")
    func foodTruck() throws {
        let phone = try rows("food-truck/FoodTruckKit", "iPhone15,2")
        #expect(phone["box/Lid"]?.file.hasSuffix("BoxLid@3x.png") == true && phone["box/Lid"]?.action == "use")
        #expect(phone["box/Lid"]?.width == 2400)
        let pad = try rows("food-truck/FoodTruckKit", "iPad12,1")
        #expect(pad["box/Lid"]?.file.hasSuffix("BoxLid@2x.png") == true && pad["box/Lid"]?.width == 1600)
        let old = try rows("food-truck/FoodTruckKit", "iPhone2,1")
        #expect(old["box/Lid"]?.file.hasSuffix("BoxLid.png") == true && old["box/Lid"]?.width == 800)
        #expect(phone["box/Lid"]?.sha256 != nil && phone.count == 22)
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
        let pad = try SliceReport.make(input: workspace.input, device: try DeviceCatalog.device("iPad12,1"))
        #expect(pad.rows.first { $0.asset == "icons/star" }?.file == "icons/star@2x~ipad.png")
    }

    @Test("a bundletool device spec and a Tessera device class both read; an unknown device lists the closest")
    func deviceSpecs() throws {
        let workspace = try Workspace()
        try workspace.write(Array(#"{"supportedAbis":["arm64-v8a"],"supportedLocales":["en-US"],"screenDensity":480,"sdkVersion":33}"#.utf8),
                            as: "spec.json")
        let android = try DeviceCatalog.device(specAt: "\(workspace.input)/spec.json")
        #expect(android.densityDPI == 480 && android.platform == .android)
        let encoded = try JSONEncoder().encode(try DeviceCatalog.device("iPhone15,2"))
        try workspace.write(Array(encoded), as: "apple.json")
        #expect(try DeviceCatalog.device(specAt: "\(workspace.input)/apple.json").id == "iPhone15,2")
        do {
            _ = try DeviceCatalog.device("iphone15,3")
            Issue.record("found an unknown device")
        } catch {
            #expect(error.reason.hasPrefix("unknown device 'iphone15,3'; closest known: iPhone15,2"))
        }
    }
}

@Suite("Building catalogs")
struct CatalogBuildTests {
    @Test("the food-truck catalogs build with no warnings: one namespace per target, Mac icon slots copied, the single-size iOS icon made into every iOS slot, colour and symbol sets carried through")
    func foodTruck() async throws {
        let workspace = try Workspace()
        let definition = try PipelineFileReader.read(path: "\(Workspace.packageRoot)/Pipelines/app-thinning.yml")
        let outcome = try await PipelineRunner.run(BuildRequest(
            definition: definition, inputFolder: "\(Workspace.corpus)/xcassets/food-truck",
            outputFolder: "\(workspace.root)/out"))
        #expect(outcome.exitStatus == 0)
        #expect(outcome.report.warnings.isEmpty, "\(outcome.report.warnings.map(\.message))")
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
