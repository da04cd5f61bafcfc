import Delivery
import Foundation
import Slicing
import TestSupport
import Testing
import TesseraCore

/// tvOS brand assets with layered icons, and a macOS `.iconset`, from real apps
/// (Tests/Fixtures/platforms/SOURCES.md): read, not skipped (issue 26, item 7).
@Suite("Platform catalogs: layered images and Mac icon sets")
struct PlatformCatalogTests {
    static let fixtures = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .appendingPathComponent("Fixtures/platforms").path

    private func files(_ asset: CatalogAsset, _ device: String) throws -> [String] {
        let target = try KnownDevices.device(device)
        return VariantSelector.select(asset, for: target).map { String($0.entry.file.split(separator: "/").last!) }
    }

    @Test("a tvOS image stack's layers are kept, each an image of its own, shipped to Apple TVs at their scale and to nothing else")
    func imageStackLayersAreKept() throws {
        let result = try FolderCatalogReader().read(root: "\(Self.fixtures)/Swiftfin/Assets.xcassets")
        #expect(result.problems.isEmpty, "\(result.problems)")
        #expect(result.assets.map { "\($0.name.name) \($0.kind.rawValue)" } == [
            "App Icon & Top Shelf Image/App Icon/Back image", "App Icon & Top Shelf Image/App Icon/Front image",
        ])
        let front = try #require(result.assets.last)
        #expect(front.entries.map { "\($0.traits.idiom) \($0.traits.scale?.description ?? "-")" } == ["tv 1x", "tv 2x"])
        #expect(try files(front, "AppleTV14,1") == ["Webp.net-resizeimage-2.png"])
        #expect(try files(front, "iPhone18,2").isEmpty && files(front, "Mac16,12").isEmpty)
    }

    @Test("a layer listed in a stack but missing is an error naming the stack's Contents.json and the layer")
    func missingLayerIsNamed() throws {
        let workspace = try Workspace()
        try workspace.write(Array(#"{"layers":[{"filename":"Front.imagestacklayer"},{"filename":"Back.imagestacklayer"}],"info":{"author":"xcode","version":1}}"#.utf8),
                            as: "A.xcassets/Icon.imagestack/Contents.json")
        try workspace.write(Array(#"{"images":[{"filename":"f.png","idiom":"tv","scale":"1x"}],"info":{"author":"xcode","version":1}}"#.utf8),
                            as: "A.xcassets/Icon.imagestack/Front.imagestacklayer/Content.imageset/Contents.json")
        try workspace.add("png/pngsuite/basn6a08.png", as: "A.xcassets/Icon.imagestack/Front.imagestacklayer/Content.imageset/f.png")
        let result = try FolderCatalogReader().read(root: "\(workspace.input)/A.xcassets")
        #expect(result.problems.map(\.description)
            == ["Icon.imagestack/Contents.json: error: 'layers[1].filename': lists 'Back.imagestacklayer', which is not in the folder"])
        #expect(result.assets.map(\.name.name) == ["Icon/Front"])
    }

    @Test("a macOS .iconset is a Mac app icon: slot sizes and scales from the file names, to Macs only; a file that is no slot is named")
    func macIconSetIsAnIcon() throws {
        let workspace = try Workspace()
        for name in ["icon_16x16.png", "icon_16x16@2x.png", "icon_32x32.png", "icon_32x32@2x.png"] {
            let bytes = try [UInt8](Data(contentsOf: URL(fileURLWithPath: "\(Self.fixtures)/SpatGRIS/AppIcon.iconset/\(name)")))
            try workspace.write(bytes, as: "Mac/AppIcon.iconset/\(name)")
        }
        // SpatGRIS's own iconset has one of these: iconutil takes no 1024 slot.
        try workspace.add("png/pngsuite/basn6a08.png", as: "Mac/AppIcon.iconset/icon_1024x1024.png")
        let result = try FolderCatalogReader().read(root: workspace.input)
        #expect(result.problems.map(\.description)
            == ["Mac/AppIcon.iconset/icon_1024x1024.png: warning: not an icon slot file (icon_16x16.png … icon_512x512@2x.png); not carried"])
        let icon = try #require(result.assets.first { $0.name.name == "Mac/AppIcon" })
        #expect(icon.kind == .appIcon)
        #expect(icon.entries.map { "\($0.traits.idiom) \($0.traits.size!) \($0.traits.scale!)" }
            == ["mac 16x16 1x", "mac 16x16 2x", "mac 32x32 1x", "mac 32x32 2x"])
        // The App Store does not thin Mac apps, and a Mac drives 1x displays: both scales ship.
        #expect(try files(icon, "Mac16,12") == ["icon_16x16@2x.png", "icon_16x16.png", "icon_32x32@2x.png", "icon_32x32.png"])
        #expect(try files(icon, "iPhone18,2").isEmpty && files(icon, "AppleTV14,1").isEmpty)
        // Its files are not also read as loose images.
        #expect(result.assets.count == 1)
    }

    @Test("an iPhone ships a set's CarPlay (`car`) entries beside its own, since the iPhone app draws the CarPlay screen; an iPad does not")
    func carPlayEntriesGoToIPhones() throws {
        let result = try FolderCatalogReader().read(root: "\(Self.fixtures)/PocketCasts/Carplay.xcassets")
        #expect(result.problems.isEmpty, "\(result.problems)")
        let set = try #require(result.assets.first)
        #expect(try files(set, "iPhone18,2") == ["carplay-chapters@3x.png", "carplay-chapters@3x-2.png"])
        #expect(try files(set, "iPhone12,8") == ["carplay-chapters@2x.png", "carplay-chapters@2x-2.png"])
        #expect(try files(set, "iPad17,1") == ["carplay-chapters@2x.png"])
        let car = try #require(VariantSelector.select(set, for: try KnownDevices.device("iPhone18,2")).last)
        #expect(car.reason.hasPrefix("idiom car (CarPlay, drawn by the iPhone app)"))
    }

    @Test("an Android device's reason for a density-independent file speaks of densities, not idioms")
    func androidWording() throws {
        let workspace = try Workspace()
        try workspace.add("png/pngsuite/basn2c08.png", as: "res/drawable-nodpi/banner.png")
        let result = try FolderCatalogReader().read(root: workspace.input)
        let banner = try #require(result.assets.first)
        let decision = try #require(VariantSelector.select(banner, for: try KnownDevices.device("android-xxhdpi")).first)
        #expect(decision.reason == "density-independent (no density qualifier); single-scale entry")
    }
}
