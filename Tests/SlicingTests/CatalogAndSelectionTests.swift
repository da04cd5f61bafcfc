import Delivery
import Foundation
import Slicing
import TestSupport
import Testing
import TesseraCore

@Suite("Asset catalogs")
struct AssetCatalogTests {
    let catalogs = "\(Workspace.corpus)/xcassets"

    @Test("every corpus catalog reads with no problems but its unfilled app icon sets, which are named")
    func noSpuriousProblems() {
        // The Widgets and tutsplus-odr app icon sets are Xcode's template with every slot empty.
        let empty = ["food-truck/Widgets", "tutsplus-odr"]
        for path in ["food-truck/FoodTruckKit", "food-truck/App", "food-truck/Widgets", "tutsplus-odr"] {
            let result = AssetCatalogReader().read(catalogPath: "\(catalogs)/\(path)/Assets.xcassets", relativeTo: catalogs)
            let expected = empty.contains(path)
                ? ["\(path)/Assets.xcassets/AppIcon.appiconset/Contents.json: warning: the app icon set 'AppIcon' names no image file (every slot is empty): nothing is built for it"]
                : []
            #expect(result.problems.map(\.description) == expected, "\(path)")
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
        return VariantSelector.select(asset, for: try KnownDevices.device(device)).map { "\($0.appearance.rawValue):\($0.action.rawValue):\($0.entry.file)" }
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
        // The xxhdpi bucket is Play's xxhdpi split (364–526 dpi): a 364 dpi screen draws xhdpi,
        // a 480 dpi one xxxhdpi (160 up vs 2×160 down), so it holds both (AndroidDensitySplit).
        #expect(try pick(entries, "android-xxhdpi") == ["any:use:drawable-xxxhdpi/logo.png", "any:use:drawable-xhdpi/logo.png"])
        #expect(try pick(entries, "android-xhdpi") == ["any:use:drawable-xhdpi/logo.png"])
        #expect(try pick(entries, "android-hdpi") == ["any:use:drawable-xhdpi/logo.png"])      // 80 up vs 2×80 down
        #expect(try pick(entries, "android-ldpi") == ["any:use:drawable-mdpi/logo.png"])
    }
}
