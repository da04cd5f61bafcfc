import Delivery
import Foundation
import Slicing
import TestSupport
import Testing
import TesseraCore

/// One line per asset: what the reader returns, in a form a diff shows well.
private func describe(_ asset: CatalogAsset) -> String {
    var line = "\(asset.name.name) \(asset.kind.rawValue)"
    if !asset.tags.isEmpty { line += " tags=\(asset.tags.joined(separator: ","))" }
    if asset.isSingleScale { line += " single-scale" }
    if asset.preservesVectorRepresentation { line += " vector" }
    if let intent = asset.templateRenderingIntent { line += " intent=\(intent)" }
    if let catalog = asset.catalog { line += " catalog=\(catalog)" }
    for entry in asset.entries {
        line += " | \(entry.file.split(separator: "/").last ?? "") \(entry.format?.rawValue ?? "-")"
        let traits = entry.traits
        if let scale = traits.scale { line += " \(scale)" }
        if let size = traits.size { line += " \(size)" }
        if !traits.appearances.isEmpty { line += " \(traits.appearances.joined(separator: "+"))" }
        if let direction = traits.layoutDirection { line += " \(direction.rawValue)" }
        if let width = traits.screenWidth { line += " w\(width)" }
        if let dpi = traits.densityDPI { line += " \(dpi)dpi" }
        if let level = traits.minimumAPILevel { line += " v\(level)" }
    }
    return line
}

private func json(_ object: Any) -> [UInt8] {
    Array(try! JSONSerialization.data(withJSONObject: object, options: [.sortedKeys]))
}

@Suite("Catalog reader: the committed ThinningApp fixture")
struct ThinningAppFixtureTests {
    static let fixture = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .appendingPathComponent("Fixtures/catalogs/ThinningApp").path

    @Test("PDF, SVG and HEIC are kept with their format; folder tags merge; RTL and tinted icons read; two targets, two namespaces")
    func pinned() throws {
        let result = try FolderCatalogReader().read(root: Self.fixture)
        #expect(result.problems.isEmpty, "\(result.problems)")
        #expect(result.assets.map(describe) == [
            "App/AppIcon app-icon single-scale catalog=App/Assets.xcassets | icon.png png 1024x1024"
                + " | icon-dark.png png 1024x1024 dark | icon-tinted.png png 1024x1024 tinted",
            "App/Arrow image catalog=App/Assets.xcassets | arrow@2x.png png 2x left-to-right"
                + " | arrow-rtl@2x.png png 2x right-to-left",
            "App/Levels/Badge image tags=level1 single-scale catalog=App/Assets.xcassets | Badge.svg svg",
            "App/Levels/Map image tags=level1,maps single-scale vector intent=template catalog=App/Assets.xcassets"
                + " | Map.pdf pdf",
            "App/Photo image single-scale catalog=App/Assets.xcassets | Photo.heic heic",
            "Widgets/AppIcon app-icon single-scale catalog=Widgets/Assets.xcassets | widget-icon.png png 1024x1024",
        ])
    }

    @Test("every source becomes a source image: vectors and HEIC copied as they are, never dropped")
    func sources() throws {
        let result = try FolderCatalogReader().read(root: Self.fixture)
        let sources = CatalogSources.sourceImages(result.assets, unsuffixedScale: .x1)
        let (images, tags, copyOnly) = (sources.images.filter { $0.slotPoints == nil }, sources.tags, sources.copyOnly)
        #expect(images.map { "\($0.asset.name) \($0.declaredFormat.rawValue) \($0.scale)" } == [
            "App/AppIcon~1024x1024 png 1x", "App/AppIcon~1024x1024~dark png 1x", "App/AppIcon~1024x1024~tinted png 1x",
            "App/Arrow~ltr png 2x", "App/Arrow~rtl png 2x", "App/Levels/Badge svg 1x", "App/Levels/Map pdf 1x",
            "App/Photo heic 1x", "Widgets/AppIcon~1024x1024 png 1x",
        ])
        #expect(tags[AssetID("App/Levels/Map")] == ["level1", "maps"])
        #expect(tags[AssetID("App/Levels/Badge")] == ["level1"])
        #expect(copyOnly.contains(AssetID("App/Levels/Map")) && copyOnly.contains(AssetID("App/Photo")))
        #expect(!copyOnly.contains(AssetID("App/Arrow~ltr")))
        // The single-size icon also stands for every iOS slot, in each appearance, at the scales drawn.
        let slots = sources.images.filter { $0.slotPoints != nil && $0.asset.name.hasPrefix("App/AppIcon") }
        // 20, 29, 38, 40, 60, 64, 68, 76 and 83.5 pt (Xcode 14's "All Sizes"), in three appearances.
        #expect(slots.count == 3 * 9 && slots.allSatisfy { $0.relativePath.hasSuffix(".png") })
        #expect(sources.slotScales[AssetID("App/AppIcon~64x64")] == [.x2, .x3])
        #expect(sources.slotScales[AssetID("App/AppIcon~68x68")] == [.x2])
        #expect(sources.slotScales[AssetID("App/AppIcon~60x60~dark")] == [.x2, .x3])
        #expect(sources.slotScales[AssetID("App/AppIcon~83.5x83.5")] == [.x2])
        #expect(sources.slotScales[AssetID("App/AppIcon~20x20~tinted")] == [.x2, .x3], "no current iPad is 1x")
        // The single-scale sets raise no "no 2x, 3x" warning.
        let plan = VariantPlanner(scales: [.x1, .x2, .x3]).plan(images, copyOnly: copyOnly)
        #expect(plan.problems.filter { !$0.asset.name.hasPrefix("App/Arrow") }.isEmpty, "\(plan.problems)")
        #expect(plan.variants.first { $0.asset.name == "App/Levels/Map" }?.outputPath == "variants/App/Levels/Map.pdf")
    }

    @Test("slices: both directions of the arrow ship (the app picks one at run time); tinted and dark icons on iOS 18 devices")
    func slices() throws {
        let result = try FolderCatalogReader().read(root: Self.fixture)
        let arrow = try #require(result.assets.first { $0.name.name == "App/Arrow" })
        let iPhone = try KnownDevices.device("iPhone17,3")
        #expect(VariantSelector.select(arrow, for: iPhone).map(\.entry.file)
            == ["App/Assets.xcassets/Arrow.imageset/arrow@2x.png", "App/Assets.xcassets/Arrow.imageset/arrow-rtl@2x.png"])
        let icon = try #require(result.assets.first { $0.name.name == "App/AppIcon" })
        func picks(_ device: String) throws -> [String] {
            VariantSelector.select(icon, for: try KnownDevices.device(device)).map {
                "\($0.entry.traits.size ?? "-") \($0.appearance.rawValue):\($0.entry.file.split(separator: "/").last!)"
            }
        }
        // The single-size icon is every slot the phone draws: notification, Settings, Spotlight, app,
        // and from iOS 16 the 38 and 64 pt slots Xcode 14 added.
        func slots(_ appearances: [String], sizes: [String] = ["20x20", "29x29", "38x38", "40x40", "60x60", "64x64"]) -> [String] {
            sizes.flatMap { size in
                appearances.map { "\(size) \($0):" + ($0 == "any" ? "icon.png" : "icon-\($0).png") }
            }
        }
        #expect(try picks("iPhone17,3") == slots(["any", "dark", "tinted"]))
        // iPhone 8: iOS 16 at most, which shows neither dark nor tinted app icons (both came with iOS 18).
        #expect(try picks("iPhone10,1") == slots(["any"]))
        // iPhone 5s: iOS 12 at most, before the iOS 16 slots.
        #expect(try picks("iPhone6,1") == slots(["any"], sizes: ["20x20", "29x29", "40x40", "60x60"]))
        let iPadSlots = VariantSelector.select(icon, for: try KnownDevices.device("iPad17,1"))
            .filter { $0.appearance == .any }
        #expect(iPadSlots.map { "\($0.entry.traits.size ?? "-")@\($0.targetScale ?? 0)x \($0.action.rawValue)" }
            == ["20x20@2x downscale", "29x29@2x downscale", "38x38@2x downscale", "40x40@2x downscale", "64x64@2x downscale",
                "68x68@2x downscale", "76x76@2x downscale", "83.5x83.5@2x downscale"])
        // The 6th-generation iPad stops at iPadOS 17: it draws the iOS 16 slots too.
        #expect(VariantSelector.select(icon, for: try KnownDevices.device("iPad7,5")).filter { $0.appearance == .any }
            .compactMap(\.entry.traits.size).contains("68x68"))
    }
}

@Suite("Catalog reader: Xcode keys")
struct CatalogXcodeKeyTests {
    private func read(_ sets: [String: Any], files: [String] = []) throws -> (AssetCatalogReader.Result, Workspace) {
        let workspace = try Workspace()
        for (path, contents) in sets { try workspace.write(json(contents), as: "A.xcassets/\(path)/Contents.json") }
        for file in files { try workspace.add("png/pngsuite/basn2c08.png", as: "A.xcassets/\(file)") }
        return (AssetCatalogReader().read(catalogPath: "\(workspace.input)/A.xcassets", relativeTo: workspace.input),
                workspace)
    }

    @Test("a group folder's on-demand tags apply to every set inside it, nested groups add theirs, merged with the set's own")
    func folderTags() throws {
        let (result, _) = try read([
            "World": ["properties": ["on-demand-resource-tags": ["world"]]],
            "World/Cave": ["properties": ["on-demand-resource-tags": ["cave"], "provides-namespace": true]],
            "World/Cave/Bat.imageset": ["images": [["filename": "b.png", "idiom": "universal", "scale": "2x"]],
                                        "properties": ["on-demand-resource-tags": ["bat", "cave"]]],
            "World/Tree.imageset": ["images": [["filename": "t.png", "idiom": "universal", "scale": "2x"]]],
            "Plain.imageset": ["images": [["filename": "p.png", "idiom": "universal", "scale": "2x"]]],
        ], files: ["World/Cave/Bat.imageset/b.png", "World/Tree.imageset/t.png", "Plain.imageset/p.png"])
        #expect(result.problems.isEmpty, "\(result.problems)")
        #expect(result.assets.map { "\($0.name.name):\($0.tags.joined(separator: ","))" }
            == ["Cave/Bat:bat,cave,world", "Plain:", "Tree:world"])
    }

    @Test("a watch complication set's image sets are read under its name, a sprite atlas's like a group's, with the groups' tags; an unknown key is a warning")
    func complicationSet() throws {
        let (result, _) = try read([
            "Watch": ["properties": ["on-demand-resource-tags": ["watch"]]],
            "Watch/Complication.complicationset": ["assets": [
                ["filename": "Circular.imageset", "idiom": "watch", "role": "circular"],
                ["filename": "Modular.imageset", "idiom": "watch", "role": "modular", "colour": "red"],
            ]],
            "Watch/Complication.complicationset/Circular.imageset": ["images": [
                ["filename": "c.png", "idiom": "watch", "scale": "2x", "screen-width": "<=145"]]],
            "Watch/Complication.complicationset/Modular.imageset": ["images": [
                ["filename": "m.png", "idiom": "watch", "scale": "2x"]]],
            "Sprites.spriteatlas": ["properties": ["on-demand-resource-tags": ["game"]]],
            "Sprites.spriteatlas/Hero.imageset": ["images": [["filename": "h.png", "idiom": "universal", "scale": "2x"]]],
        ], files: ["Watch/Complication.complicationset/Circular.imageset/c.png",
                   "Watch/Complication.complicationset/Modular.imageset/m.png", "Sprites.spriteatlas/Hero.imageset/h.png"])
        #expect(result.problems.map(\.description)
            == ["A.xcassets/Watch/Complication.complicationset/Contents.json: warning: 'assets[1].colour': unknown key"])
        #expect(result.assets.map { "\($0.name.name):\($0.tags.joined(separator: ",")):\($0.entries.map(\.traits.idiom))" }
            == ["Complication/Circular:watch:[\"watch\"]", "Complication/Modular:watch:[\"watch\"]",
                "Hero:game:[\"universal\"]"])
    }

    @Test("language-direction, screen-width and template-rendering-intent are read; an unknown key is a warning naming file and key")
    func keys() throws {
        let (result, _) = try read([
            "W.imageset": ["images": [
                ["filename": "small.png", "idiom": "watch", "scale": "2x", "screen-width": "<=145"],
                ["filename": "large.png", "idiom": "watch", "scale": "2x", "screen-width": ">183",
                 "template-rendering-intent": "original"],
                ["filename": "rtl.png", "idiom": "universal", "scale": "2x", "language-direction": "right-to-left",
                 "sparkle": true],
            ], "properties": ["template-rendering-intent": "template", "glitter": 1]],
        ], files: ["W.imageset/small.png", "W.imageset/large.png", "W.imageset/rtl.png"])
        #expect(result.problems.map(\.description) == [
            "A.xcassets/W.imageset/Contents.json: warning: 'images[2].sparkle': unknown key",
            "A.xcassets/W.imageset/Contents.json: warning: 'properties.glitter': unknown key",
        ])
        let asset = try #require(result.assets.first)
        #expect(asset.templateRenderingIntent == "template" && !asset.isSingleScale)
        #expect(asset.entries.map { "\($0.traits.screenWidth?.description ?? "-") \($0.templateRenderingIntent ?? "-")" }
            == ["<=145 -", ">183 original", "- -"])
        #expect(asset.entries[2].traits.layoutDirection == .rightToLeft)
    }

    @Test("watches get the entry whose screen-width they meet")
    func screenWidth() throws {
        let (result, _) = try read([
            "W.imageset": ["images": [
                ["filename": "any.png", "idiom": "watch", "scale": "2x"],
                ["filename": "large.png", "idiom": "watch", "scale": "2x", "screen-width": ">183"],
            ]],
        ], files: ["W.imageset/any.png", "W.imageset/large.png"])
        let asset = try #require(result.assets.first)
        func pick(_ id: String) throws -> String? {
            VariantSelector.select(asset, for: try KnownDevices.device(id)).first?.entry.file.split(separator: "/").last
                .map(String.init)
        }
        #expect(try pick("Watch7,9") == "large.png")  // 208 pt
        #expect(try pick("Watch6,1") == "any.png")    // 162 pt
    }

    @Test("\"scale\": 2 (a number) and a bad language-direction are errors naming the key; the set's other entries survive")
    func badValues() throws {
        let (result, _) = try read([
            "N.imageset": ["images": [
                ["filename": "two.png", "idiom": "universal", "scale": 2],
                ["filename": "three.png", "idiom": "universal", "scale": "3x", "language-direction": "sideways"],
                ["filename": "one.png", "idiom": "universal", "scale": "1x"],
            ]],
        ], files: ["N.imageset/two.png", "N.imageset/three.png", "N.imageset/one.png"])
        #expect(result.problems.map(\.description) == [
            "A.xcassets/N.imageset/Contents.json: error: 'images[0].scale': expected a string (like \"2x\"), found 2",
            "A.xcassets/N.imageset/Contents.json: error: 'images[1].language-direction': 'sideways' is not left-to-right or right-to-left",
        ])
        #expect(result.assets.first?.entries.map(\.file) == ["A.xcassets/N.imageset/one.png"])
    }

    @Test("single-scale sets: no scale in any entry, properties.scales single, or preserved vectors; scaled sets are not")
    func singleScale() throws {
        let (result, _) = try read([
            "NoScale.imageset": ["images": [["filename": "a.png", "idiom": "universal"]]],
            "Declared.imageset": ["images": [["filename": "a.png", "idiom": "universal", "scale": "1x"]],
                                  "properties": ["scales": "single"]],
            "Scaled.imageset": ["images": [["filename": "a.png", "idiom": "universal", "scale": "2x"],
                                           ["idiom": "universal", "scale": "3x"]]],
            "Empty.imageset": ["images": [["idiom": "universal", "scale": "2x"]]],
        ], files: ["NoScale.imageset/a.png", "Declared.imageset/a.png", "Scaled.imageset/a.png"])
        #expect(result.problems.map(\.reason) == ["the image set 'Empty' names no image file (every slot is empty): nothing is built for it"])
        #expect(result.assets.map { "\($0.name.name):\($0.isSingleScale)" }
            == ["Declared:true", "Empty:false", "NoScale:true", "Scaled:false"])
    }

    @Test("a file Tessera cannot handle is a warning naming it, not a silent skip")
    func unhandledFormat() throws {
        let workspace = try Workspace()
        try workspace.write(json(["images": [["filename": "old.tiff", "idiom": "universal", "scale": "2x"],
                                             ["filename": "new.png", "idiom": "universal", "scale": "3x"]]]),
                            as: "in/A.xcassets/T.imageset/Contents.json")
        try workspace.write([0x49, 0x49, 0x2A, 0x00], as: "in/A.xcassets/T.imageset/old.tiff")
        try workspace.add("png/pngsuite/basn2c08.png", as: "in/A.xcassets/T.imageset/new.png")
        try workspace.write([0x42, 0x4D], as: "in/loose/scan.bmp")
        try workspace.write(Array("notes".utf8), as: "in/loose/README.md")
        let result = try FolderCatalogReader().read(root: "\(workspace.input)/in")
        #expect(result.problems.map(\.description) == [
            "A.xcassets/T.imageset/Contents.json: warning: 'images[0].filename': Tessera cannot handle 'old.tiff' "
                + "(not PNG, JPEG, WebP, GIF, PDF, SVG or HEIC); not carried",
            "loose/scan.bmp: warning: Tessera cannot handle '.bmp' images (not PNG, JPEG, WebP, GIF, PDF, SVG or HEIC); not carried",
        ])
        #expect(result.assets.map(\.name.name) == ["T"])
    }

    @Test("a file in a set's folder that no entry names is a warning naming it (Xcode's unassigned child)")
    func unassignedFilesAreNamed() throws {
        let workspace = try Workspace()
        try workspace.write(json(["images": [["filename": "star.png", "idiom": "universal", "scale": "2x"]]]),
                            as: "in/A.xcassets/Star.imageset/Contents.json")
        try workspace.add("png/pngsuite/basn2c08.png", as: "in/A.xcassets/Star.imageset/star.png")
        try workspace.add("png/pngsuite/basn6a08.png", as: "in/A.xcassets/Star.imageset/star@3x.png")
        try workspace.write(Array("x".utf8), as: "in/A.xcassets/Star.imageset/.DS_Store")
        let result = try FolderCatalogReader().read(root: "\(workspace.input)/in")
        #expect(result.problems.map(\.description) == [
            "A.xcassets/Star.imageset/star@3x.png: warning: no entry of the set's Contents.json names this file "
                + "(Xcode: an unassigned child); not built",
        ])
        #expect(result.assets.flatMap { $0.entries.map(\.file) } == ["A.xcassets/Star.imageset/star.png"])
    }

    @Test("an app icon or image set whose slots are all empty is a warning naming it, not a silent vanishing")
    func emptySetsAreNamed() throws {
        let workspace = try Workspace()
        // As Xcode writes a new, unfilled app icon set and image set.
        try workspace.write(json(["images": [["idiom": "universal", "platform": "ios", "size": "1024x1024"]],
                                  "info": ["author": "xcode", "version": 1]]),
                            as: "in/A.xcassets/AppIcon.appiconset/Contents.json")
        try workspace.write(json(["images": [["idiom": "universal", "scale": "1x"], ["idiom": "universal", "scale": "2x"]],
                                  "info": ["author": "xcode", "version": 1]]),
                            as: "in/A.xcassets/Blank.imageset/Contents.json")
        let result = try FolderCatalogReader().read(root: "\(workspace.input)/in")
        #expect(result.problems.map(\.description) == [
            "A.xcassets/AppIcon.appiconset/Contents.json: warning: the app icon set 'AppIcon' names no image file (every slot is empty): nothing is built for it",
            "A.xcassets/Blank.imageset/Contents.json: warning: the image set 'Blank' names no image file (every slot is empty): nothing is built for it",
        ])
    }
}

@Suite("Catalog reader: targets and name collisions")
struct CatalogNamespaceTests {
    private func iconSet(_ workspace: Workspace, _ catalog: String, _ name: String = "Logo") throws {
        try workspace.write(json(["images": [["filename": "l.png", "idiom": "universal", "scale": "2x"]]]),
                            as: "\(catalog)/\(name).imageset/Contents.json")
        try workspace.add("png/pngsuite/basn2c08.png", as: "\(catalog)/\(name).imageset/l.png")
    }

    @Test("the namespace rule: a lone catalog is unprefixed; with several, Assets.xcassets takes its folder's name")
    func rule() throws {
        #expect(CatalogNamespacing.namespace(ofCatalogAt: "Widgets/Assets.xcassets") == "Widgets")
        #expect(CatalogNamespacing.namespace(ofCatalogAt: "Shared/Icons.xcassets") == "Shared/Icons")
        #expect(CatalogNamespacing.namespace(ofCatalogAt: "Assets.xcassets") == "Assets")
        let one = try Workspace()
        try iconSet(one, "App/Assets.xcassets")
        #expect(try FolderCatalogReader().read(root: one.input).assets.map(\.name.name) == ["Logo"])
    }

    @Test("two catalogs both defining Logo are two assets; merged, it is an error naming both files and neither is used")
    func collisions() throws {
        let workspace = try Workspace()
        try iconSet(workspace, "App/Assets.xcassets")
        try iconSet(workspace, "Watch/Assets.xcassets")
        let separate = try FolderCatalogReader().read(root: workspace.input)
        #expect(separate.problems.isEmpty)
        #expect(separate.assets.map(\.name.name) == ["App/Logo", "Watch/Logo"])
        let merged = try FolderCatalogReader(namespacing: .merged).read(root: workspace.input)
        #expect(merged.assets.isEmpty)
        #expect(merged.problems.map(\.description) == [
            "App/Assets.xcassets/Logo.imageset: error: asset name 'Logo' is also defined by "
                + "Watch/Assets.xcassets/Logo.imageset; neither is used (see the catalog namespace rule in docs/variant-selection.md)",
        ])
    }

    @Test("an image set and an app icon set of one name are both kept, as Xcode keeps them (Swiftfin's icon previews)")
    func imageAndIconShareAName() throws {
        let workspace = try Workspace()
        try workspace.write(json(["images": [["filename": "p.png", "idiom": "universal", "scale": "2x"]]]),
                            as: "A.xcassets/AppIcon-dark.imageset/Contents.json")
        try workspace.add("png/pngsuite/basn2c08.png", as: "A.xcassets/AppIcon-dark.imageset/p.png")
        try workspace.write(json(["images": [["filename": "i.png", "idiom": "universal", "platform": "ios", "size": "1024x1024"]]]),
                            as: "A.xcassets/Icons/AppIcon-dark.appiconset/Contents.json")
        try workspace.add("png/pngsuite/basn6a08.png", as: "A.xcassets/Icons/AppIcon-dark.appiconset/i.png")
        let result = try FolderCatalogReader().read(root: workspace.input)
        #expect(result.problems.isEmpty, "\(result.problems)")
        #expect(result.assets.map { "\($0.name.name) \($0.kind.rawValue)" } == ["AppIcon-dark app-icon", "AppIcon-dark image"])
        let groups = Set(CatalogSources.sourceImages(result.assets, unsuffixedScale: .x1).images.map(\.asset.name))
        #expect(groups.contains("AppIcon-dark") && groups.contains("AppIcon-dark~1024x1024") && groups.contains("AppIcon-dark~60x60"))
    }

    @Test("SwiftUI preview assets are left out with a warning, as an archive leaves them out; given as the input they are read")
    func previewAssetsAreDevelopmentOnly() throws {
        let workspace = try Workspace()
        for catalog in ["App/Assets.xcassets", "App/Preview Content/Preview Assets.xcassets", "Kit/Preview Assets.xcassets"] {
            try workspace.write(json(["images": [["filename": "p.png", "idiom": "universal", "scale": "2x"]]]),
                                as: "\(catalog)/Photo.imageset/Contents.json")
            try workspace.add("png/pngsuite/basn2c08.png", as: "\(catalog)/Photo.imageset/p.png")
        }
        let result = try FolderCatalogReader().read(root: workspace.input)
        #expect(result.assets.map(\.name.name) == ["Photo"])
        #expect(result.problems.map(\.file) == ["App/Preview Content", "Kit/Preview Assets.xcassets"])
        #expect(result.problems.allSatisfy { !$0.isError && $0.reason.hasPrefix("development assets") })
        let direct = try FolderCatalogReader().read(root: "\(workspace.input)/Kit/Preview Assets.xcassets")
        #expect(direct.assets.map(\.name.name) == ["Photo"] && direct.problems.isEmpty)
    }

    @Test("two sets of one name in plain groups of one catalog collide too")
    func sameCatalog() throws {
        let workspace = try Workspace()
        try iconSet(workspace, "A.xcassets/one")
        try iconSet(workspace, "A.xcassets/two")
        let result = try FolderCatalogReader().read(root: workspace.input)
        #expect(result.assets.isEmpty)
        #expect(result.problems.map(\.isError) == [true])
        #expect(result.problems.first?.description.contains("A.xcassets/two/Logo.imageset") == true)
    }
}

@Suite("Catalog reader: hostile catalogs")
struct CatalogSafetyTests {
    @Test("a filename with ../ is an error naming file and key, and the file is not read")
    func dotDot() throws {
        let workspace = try Workspace()
        try workspace.add("png/pngsuite/basn2c08.png", as: "secret.png")
        try workspace.write(json(["images": [["filename": "../../secret.png", "idiom": "universal", "scale": "2x"]]]),
                            as: "in/A.xcassets/S.imageset/Contents.json")
        let result = try FolderCatalogReader().read(root: "\(workspace.input)/in")
        #expect(result.problems.map(\.description) == [
            "A.xcassets/S.imageset/Contents.json: error: 'images[0].filename': '../../secret.png' leaves the set folder; not read",
        ])
        #expect(result.assets.first?.entries.isEmpty == true)
    }

    @Test("symlinks to files and folders outside the input are errors and are not read; links inside are fine")
    func symlinks() throws {
        let workspace = try Workspace()
        try workspace.add("png/pngsuite/basn2c08.png", as: "outside/secret.png")
        try workspace.add("png/pngsuite/basn2c08.png", as: "in/shared/inside.png")
        try workspace.write(json(["images": [["filename": "s.png", "idiom": "universal", "scale": "2x"],
                                             ["filename": "i.png", "idiom": "universal", "scale": "3x"]]]),
                            as: "in/A.xcassets/S.imageset/Contents.json")
        let fm = FileManager.default
        let input = "\(workspace.input)/in"
        try fm.createSymbolicLink(atPath: "\(input)/A.xcassets/S.imageset/s.png", withDestinationPath: "\(workspace.input)/outside/secret.png")
        try fm.createSymbolicLink(atPath: "\(input)/A.xcassets/S.imageset/i.png", withDestinationPath: "../../shared/inside.png")
        try fm.createSymbolicLink(atPath: "\(input)/A.xcassets/Out.imageset", withDestinationPath: "\(workspace.input)/outside")
        try fm.createSymbolicLink(atPath: "\(input)/loose.png", withDestinationPath: "\(workspace.input)/outside/secret.png")
        let result = try FolderCatalogReader().read(root: input)
        #expect(result.problems.map(\.description) == [
            "A.xcassets/Out.imageset: error: a link to a folder outside the input folder; not read",
            "A.xcassets/S.imageset/Contents.json: error: 'images[0].filename': 's.png' is a link to a file outside the input folder; not read",
            "loose.png: error: a link to a path outside the input folder; not read",
        ])
        let names = result.assets.map { "\($0.name.name):\($0.entries.map { $0.file.split(separator: "/").last! })" }
        #expect(names == ["S:[\"i.png\"]", "shared/inside:[\"inside.png\"]"])
    }

    @Test("tags with control characters, empty tags and tags with / are errors naming file and tag; valid tags stay")
    func tags() throws {
        let workspace = try Workspace()
        try workspace.write(json(["images": [], "properties": ["on-demand-resource-tags": ["ok", "bad\u{7}", "", "a/b"]]]),
                            as: "A.xcassets/T.imageset/Contents.json")
        try workspace.write(json(["properties": ["on-demand-resource-tags": ["x\ny"]]]), as: "A.xcassets/G/Contents.json")
        try workspace.write(Array("tags:\n  \"**\": [fine, \"\\t\"]\n".utf8), as: "tessera.yml")
        let result = try FolderCatalogReader().read(root: workspace.input)
        #expect(result.problems.map(\.description) == [
            "A.xcassets/G/Contents.json: error: 'properties.on-demand-resource-tags': tag 'x\\u{a}y' contains a control character",
            "A.xcassets/T.imageset/Contents.json: error: 'properties.on-demand-resource-tags': a tag is empty",
            "A.xcassets/T.imageset/Contents.json: error: 'properties.on-demand-resource-tags': tag 'a/b' contains '/'",
            "A.xcassets/T.imageset/Contents.json: error: 'properties.on-demand-resource-tags': tag 'bad\\u{7}' contains a control character",
            "tessera.yml:2:16: error: 'tags.**': tag '\\u{9}' contains a control character",
        ])
        // The input root's tessera.yml tags catalog sets too, beside their own valid tags.
        #expect(result.assets.first?.tags == ["fine", "ok"])
    }

    @Test("an output folder inside the input is not scanned")
    func excludedOutput() throws {
        let workspace = try Workspace()
        try workspace.add("png/pngsuite/basn2c08.png", as: "icons/star@2x.png")
        try workspace.add("png/pngsuite/basn2c08.png", as: "out/variants/icons/star@2x.png")
        let all = try FolderCatalogReader().read(root: workspace.input)
        #expect(all.assets.map(\.name.name) == ["icons/star", "out/variants/icons/star"])
        let scoped = try FolderCatalogReader(excluding: ["\(workspace.input)/out"]).read(root: workspace.input)
        #expect(scoped.assets.map(\.name.name) == ["icons/star"])
    }
}

@Suite("Android resource folders")
struct AndroidResourceTests {
    @Test("density folders of one drawable are one asset; drawable/ is mdpi; -night, -ldrtl, -vNN are traits; XML is data")
    func folders() throws {
        let workspace = try Workspace()
        for folder in ["drawable", "drawable-xhdpi", "drawable-night-xhdpi", "drawable-ldrtl-xxhdpi", "drawable-xxhdpi-v26"] {
            try workspace.add("png/pngsuite/basn2c08.png", as: "res/\(folder)/logo.png")
        }
        try workspace.write(Array("<vector/>".utf8), as: "res/drawable-anydpi-v24/logo.xml")
        try workspace.write(Array("<shape/>".utf8), as: "res/drawable/button.xml")
        try workspace.add("png/pngsuite/basn2c08.png", as: "res/drawable-land-hdpi/logo.png")
        let result = try FolderCatalogReader().read(root: workspace.input)
        #expect(result.problems.map(\.description) == [
            "res/drawable-land-hdpi: warning: qualifier 'land' is chosen by the device at run time, not by Google Play: its files ship beside the unqualified ones to every device of their density",
        ])
        #expect(result.assets.map(describe) == [
            "res/button data | button.xml - 160dpi",
            "res/logo data | logo.xml - v24",
            "res/logo image | logo.png png 240dpi | logo.png png right-to-left 480dpi | logo.png png dark 320dpi"
                + " | logo.png png 320dpi | logo.png png 480dpi v26 | logo.png png 160dpi",
        ])
        let images = CatalogSources.sourceImages(result.assets, unsuffixedScale: .x1).images
        #expect(images.map(\.asset.name) == ["res/logo~hdpi~land", "res/logo~mdpi", "res/logo~rtl~xxhdpi", "res/logo~xhdpi",
                                             "res/logo~dark~xhdpi", "res/logo~xxhdpi~v26"].sorted())
    }

    @Test("selection: night entries are the dark variant, ldrtl ships beside the unqualified files (the device picks), the highest -vNN the device runs wins")
    func selection() throws {
        func entry(_ file: String, dpi: Int, dark: Bool = false, rtl: Bool = false, api: Int? = nil) -> CatalogEntry {
            var traits = VariantTraits()
            traits.densityDPI = dpi
            if dark { traits.appearances = ["dark"] }
            if rtl { traits.layoutDirection = .rightToLeft }
            traits.minimumAPILevel = api
            return CatalogEntry(file: file, traits: traits, format: .png)
        }
        let asset = CatalogAsset(name: AssetID("logo"), kind: .image, entries: [
            entry("xx", dpi: 480), entry("xx-v26", dpi: 480, api: 26), entry("xx-night", dpi: 480, dark: true),
            entry("xx-rtl", dpi: 480, rtl: true),
        ], tags: [], contentsFile: nil)
        let phone = try KnownDevices.device("android-xxhdpi")
        #expect(VariantSelector.select(asset, for: phone).map { "\($0.appearance.rawValue):\($0.entry.file)" }
            == ["any:xx-v26", "dark:xx-night", "any:xx-rtl"])
        var old = phone
        old.androidAPILevel = 24
        #expect(VariantSelector.select(asset, for: old).first?.entry.file == "xx")
    }
}

@Suite("Carried formats")
struct CarriedFormatTests {
    @Test("PDF, SVG and HEIC are recognised by extension and content; the vectors are the formats that are not decoded")
    func formats() {
        #expect(ImageFormat(fileExtension: "PDF") == .pdf && ImageFormat(fileExtension: "heif") == .heic)
        #expect(ImageFormat.sniff(Array("%PDF-1.4\n".utf8)) == .pdf)
        #expect(ImageFormat.sniff(Array("<svg xmlns".utf8)) == .svg)
        #expect(ImageFormat.sniff([0, 0, 0, 24] + Array("ftypheic".utf8)) == .heic)
        #expect(ImageFormat.sniff([0, 0, 0, 24] + Array("ftypavif".utf8)) == nil)
        #expect(ImageFormat.allCases.filter { !$0.isDecodable } == [.pdf, .svg])
        #expect(ImageFormat.allCases.filter(\.isVector) == [.pdf, .svg])
    }
}

@Suite("App icons per platform")
struct AppIconPlatformTests {
    /// Xcode's own layout: one icon set with the iOS and the watchOS single-size icons, and a
    /// watch app's set with case-size subtypes (as Xcode 14 writes a pre-single-size watch icon).
    private func read() throws -> [CatalogAsset] {
        let workspace = try Workspace()
        try workspace.write(json(["images": [
            ["filename": "ios.png", "idiom": "universal", "platform": "ios", "size": "1024x1024"],
            ["filename": "watch.png", "idiom": "universal", "platform": "watchos", "size": "1024x1024"],
        ], "info": ["author": "xcode", "version": 1]]), as: "in/A.xcassets/AppIcon.appiconset/Contents.json")
        try workspace.write(json(["images": [
            ["filename": "w80.png", "idiom": "watch", "role": "appLauncher", "scale": "2x", "size": "40x40", "subtype": "38mm"],
            ["filename": "w88.png", "idiom": "watch", "role": "appLauncher", "scale": "2x", "size": "44x44", "subtype": "40mm"],
            ["filename": "w92.png", "idiom": "watch", "role": "appLauncher", "scale": "2x", "size": "46x46", "subtype": "41mm"],
            ["filename": "w58.png", "idiom": "watch", "role": "companionSettings", "scale": "2x", "size": "29x29"],
            ["filename": "n48.png", "idiom": "watch", "role": "notificationCenter", "scale": "2x", "size": "24x24", "subtype": "38mm"],
            ["filename": "n55.png", "idiom": "watch", "role": "notificationCenter", "scale": "2x", "size": "27.5x27.5", "subtype": "42mm"],
            ["filename": "n66.png", "idiom": "watch", "role": "notificationCenter", "scale": "2x", "size": "33x33", "subtype": "45mm"],
        ], "info": ["author": "xcode", "version": 1]]), as: "in/W.xcassets/WatchIcon.appiconset/Contents.json")
        for name in ["A.xcassets/AppIcon.appiconset/ios.png", "A.xcassets/AppIcon.appiconset/watch.png",
                     "W.xcassets/WatchIcon.appiconset/w80.png", "W.xcassets/WatchIcon.appiconset/w88.png",
                     "W.xcassets/WatchIcon.appiconset/w92.png", "W.xcassets/WatchIcon.appiconset/w58.png",
                     "W.xcassets/WatchIcon.appiconset/n48.png", "W.xcassets/WatchIcon.appiconset/n55.png",
                     "W.xcassets/WatchIcon.appiconset/n66.png"] {
            try workspace.add("png/pngsuite/basn6a08.png", as: "in/\(name)")
        }
        let result = try FolderCatalogReader().read(root: "\(workspace.input)/in")
        #expect(result.problems.isEmpty, "\(result.problems)")
        return result.assets
    }

    private func files(_ assets: [CatalogAsset], _ device: String) throws -> [String] {
        let target = try KnownDevices.device(device)
        return assets.flatMap { VariantSelector.select($0, for: target) }.map {
            "\($0.entry.file.split(separator: "/").last!) \($0.entry.traits.size ?? "")"
        }.sorted()
    }

    @Test("a single-size icon goes only to its platform's devices, made into their slots: the watchOS 1024 never to an iPhone, the iOS one never to a Mac, watch or TV")
    func singleSizeIconsFollowTheirPlatform() throws {
        let assets = try read()
        let phone = try files(assets, "iPhone17,1")
        #expect(!phone.isEmpty && phone.allSatisfy { $0.hasPrefix("ios.png") })
        #expect(try files(assets, "Mac16,12").isEmpty)
        #expect(try files(assets, "AppleTV14,1").isEmpty)
        #expect(try files(assets, "RealityDevice14,1").isEmpty)
        // A watch gets its slots made from the watchOS icon, and of the watch app's set, per role,
        // the case size nearest its own: a 41 mm watch the 42mm notification icon.
        #expect(try files(assets, "Watch7,1") == [
            "n55.png 27.5x27.5", "w58.png 29x29", "w92.png 46x46",
            "watch.png 27.5x27.5", "watch.png 29x29", "watch.png 46x46", "watch.png 98x98",
        ])
        #expect(try files(assets, "Watch6,1") == [
            "n55.png 27.5x27.5", "w58.png 29x29", "w88.png 44x44",
            "watch.png 27.5x27.5", "watch.png 29x29", "watch.png 44x44", "watch.png 98x98",
        ])
        #expect(try files(assets, "Watch7,5") == [
            "n66.png 33x33", "w58.png 29x29", "w92.png 46x46",
            "watch.png 129x129", "watch.png 29x29", "watch.png 33x33", "watch.png 54x54",
        ])
    }

    @Test("the iPad slots made from a single-size icon are 2x only: no current iPad is 1x")
    func noOneXiPadSlots() throws {
        #expect(AppIconSlots.iOS.allSatisfy { !$0.scales.contains(1) })
        let assets = try read()
        let icon = try #require(assets.first { $0.name.name.hasSuffix("AppIcon") }).name.name
        let sources = CatalogSources.sourceImages(assets, unsuffixedScale: .x1)
        #expect(sources.slotScales[AssetID("\(icon)~76x76")] == [.x2])
        #expect(sources.slotScales[AssetID("\(icon)~60x60")] == [.x2, .x3])
        // The watchOS icon is a group of its own, not a second "1x" of the iOS one, and stands
        // for every watch slot, each made at 2x, as Xcode makes them.
        #expect(sources.images.contains { $0.asset == AssetID("\(icon)~1024x1024~watchos") })
        #expect(sources.slotScales[AssetID("\(icon)~46x46~watchos")] == [.x2])
        #expect(sources.slotScales[AssetID("\(icon)~129x129~watchos")] == [.x2])
    }
}

/// Idioms as shipping projects write them (issue 53, item 4).
@Suite("Idioms shipping projects write")
struct ShippingIdiomTests {
    @Test("'reality' is visionOS's idiom (Vision Pro selects it) and 'tv-marketing' is known App Store artwork: neither is warned about")
    func realityAndTVMarketing() throws {
        let workspace = try Workspace()
        let images: [[String: String]] = [
            ["filename": "v.png", "idiom": "reality", "scale": "2x"],
            ["filename": "u.png", "idiom": "universal", "scale": "2x"],
            ["filename": "shelf.png", "idiom": "tv-marketing", "scale": "1x"],
        ]
        try workspace.write(Array(try JSONSerialization.data(withJSONObject: ["images": images])), as: "A.xcassets/Icon.imageset/Contents.json")
        for file in ["v.png", "u.png", "shelf.png"] { try workspace.add("png/pngsuite/basn2c08.png", as: "A.xcassets/Icon.imageset/\(file)") }
        let read = try FolderCatalogReader().read(root: workspace.input)
        #expect(read.problems.isEmpty, "\(read.problems)")
        let asset = try #require(read.assets.first)
        #expect(asset.entries.map(\.traits.idiom).sorted() == ["tv-marketing", "universal", "vision"])
        let vision = VariantSelector.select(asset, for: try KnownDevices.device("RealityDevice14,1"))
        #expect(vision.map { ($0.entry.file as NSString).lastPathComponent } == ["v.png"])
        let phone = VariantSelector.select(asset, for: try KnownDevices.device("iPhone15,2"))
        #expect(!phone.contains { $0.entry.file.hasSuffix("shelf.png") || $0.entry.file.hasSuffix("v.png") })
    }
}
