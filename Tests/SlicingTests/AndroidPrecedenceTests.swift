import Delivery
import Foundation
import Slicing
import TestSupport
import Testing
import TesseraCore

/// Android's choice among all of a resource's configurations (AOSP `ResTable_config::isBetterThan`):
/// an `anydpi` configuration the device's API level reaches beats every density, so an XML vector
/// in `drawable-anydpi-v26/` is what an Android 8+ device draws and a same-named density PNG is not
/// shipped to it; and Play's density splits (bundletool) hold every density their range draws.
@Suite("Android: anydpi precedence and density splits")
struct AndroidPrecedenceTests {
    /// A resource folder tree read as a user's input is: `logo` as PNGs in `pngs` (by default at
    /// xhdpi and xxhdpi, and a night PNG), and the given XML drawables.
    private func read(xml folders: [String], extraPNGs: [String] = [],
                      pngs: [String] = ["drawable-xhdpi", "drawable-xxhdpi", "drawable-night-xxhdpi"]) throws -> CatalogAsset {
        let workspace = try Workspace()
        for folder in pngs + extraPNGs {
            try workspace.add("png/pngsuite/basn2c08.png", as: "res/\(folder)/logo.png")
        }
        for folder in folders {
            try workspace.write(Array("<vector xmlns:android=\"http://schemas.android.com/apk/res/android\"/>\n".utf8),
                                as: "res/\(folder)/logo.xml")
        }
        let result = try FolderCatalogReader().read(root: workspace.input)
        return try #require(result.assets.first { $0.name.name == "res/logo" && $0.kind == .image })
    }

    /// A bundletool device spec's device: one screen at `dpi`, running API level `api`.
    private func device(dpi: Int, api: Int?) -> DeviceClass {
        DeviceClass(id: "android-\(dpi)dpi", name: "spec", platform: .android, idiom: "phone", scale: max(1, dpi / 160),
                    densityDPI: dpi, memoryGB: 4, graphicsFamily: nil, displayGamut: .sRGB, supportsDarkMode: true,
                    androidAPILevel: api)
    }

    private func picked(_ asset: CatalogAsset, _ device: DeviceClass) -> [String] {
        VariantSelector.select(asset, for: device).map { "\($0.appearance.rawValue):\($0.entry.file.split(separator: "/").suffix(2).joined(separator: "/"))" }
    }

    @Test("an anydpi-v26 XML drawable: API 26+ devices get no same-named density PNG (the dark night PNG still ships); API 25 gets the PNG")
    func anydpiVersioned() throws {
        let logo = try read(xml: ["drawable-anydpi-v26"])
        #expect(logo.xmlDrawables.map(\.file) == ["res/drawable-anydpi-v26/logo.xml"])
        // `night` is weighed before density: a dark screen draws the night PNG, not the XML.
        #expect(picked(logo, device(dpi: 480, api: 26)) == ["dark:drawable-night-xxhdpi/logo.png"])
        #expect(picked(logo, device(dpi: 480, api: 34)) == ["dark:drawable-night-xxhdpi/logo.png"])
        #expect(picked(logo, device(dpi: 480, api: 25)) == ["any:drawable-xxhdpi/logo.png", "dark:drawable-night-xxhdpi/logo.png"])
        // The built-in buckets are a current Android.
        for bucket in ["android-mdpi", "android-xhdpi", "android-xxhdpi", "android-xxxhdpi"] {
            #expect(picked(logo, try KnownDevices.device(bucket)) == ["dark:drawable-night-xxhdpi/logo.png"], "\(bucket)")
        }
    }

    @Test("anydpi without -vNN is Lollipop's (aapt2 compiles it as anydpi-v21): API 21 gets only the XML, API 20 the PNG")
    func anydpiUnversioned() throws {
        let logo = try read(xml: ["drawable-anydpi"])
        #expect(!picked(logo, device(dpi: 320, api: 21)).contains { $0.hasPrefix("any:") })
        #expect(picked(logo, device(dpi: 320, api: 20)).first == "any:drawable-xhdpi/logo.png")
    }

    @Test("an XML drawable in a density folder competes as that density: it wins where Android draws it, the PNGs elsewhere")
    func xmlAtADensity() throws {
        let logo = try read(xml: ["drawable-mdpi"])
        #expect(picked(logo, device(dpi: 160, api: nil)).first != "any:drawable-xhdpi/logo.png")
        #expect(!picked(logo, device(dpi: 160, api: nil)).contains { $0.hasPrefix("any:") })
        #expect(picked(logo, device(dpi: 320, api: nil)).first == "any:drawable-xhdpi/logo.png")
    }

    @Test("an anydpi bitmap beats the density bitmaps of its resource")
    func anydpiBitmap() throws {
        let logo = try read(xml: [], extraPNGs: ["drawable-anydpi"])
        #expect(logo.entries.first { $0.file.contains("anydpi") }?.traits.anyDensity == true)
        #expect(picked(logo, device(dpi: 480, api: nil)) == ["any:drawable-anydpi/logo.png", "dark:drawable-night-xxhdpi/logo.png"])
        #expect(picked(logo, device(dpi: 480, api: 19)).first == "any:drawable-xxhdpi/logo.png")
        // Its variant group is its own, apart from a `nodpi` file of the same name.
        let groups = Set(logo.entries.map { CatalogSources.variantGroup(logo.name, $0.traits).name })
        #expect(groups.count == logo.entries.count && groups.contains("res/logo~anydpi"))
    }

    @Test("a density bucket holds every density its split's screens draw; a single screen the one it draws")
    func bucketsHoldTheirRange() throws {
        // No xxhdpi file: the gap between xhdpi and xxxhdpi is where splits differ from single screens.
        let logo = try read(xml: [], pngs: ["drawable-mdpi", "drawable-xhdpi", "drawable-xxxhdpi"])
        // Play's xxhdpi split serves 364–526 dpi: 480 draws xxxhdpi ((640 − 480)·640 ≤ 480²), 364 xhdpi.
        #expect(picked(logo, try KnownDevices.device("android-xxhdpi")) == ["any:drawable-xxxhdpi/logo.png", "any:drawable-xhdpi/logo.png"])
        #expect(picked(logo, device(dpi: 480, api: nil)) == ["any:drawable-xxxhdpi/logo.png"])
        #expect(picked(logo, device(dpi: 364, api: nil)) == ["any:drawable-xhdpi/logo.png"])
        // tvdpi serves 176–221 dpi: 213 draws xhdpi, 176 mdpi ((320 − 176)·320 > 176²).
        #expect(picked(logo, try KnownDevices.device("android-tvdpi")) == ["any:drawable-xhdpi/logo.png", "any:drawable-mdpi/logo.png"])
        // Where the split's every screen draws one density, the bucket holds it alone.
        #expect(picked(logo, try KnownDevices.device("android-xxxhdpi")) == ["any:drawable-xxxhdpi/logo.png"])
        #expect(picked(logo, try KnownDevices.device("android-mdpi")) == ["any:drawable-mdpi/logo.png"])
        #expect(picked(logo, try KnownDevices.device("android-hdpi")) == ["any:drawable-xhdpi/logo.png"])
        let reasons = VariantSelector.select(logo, for: try KnownDevices.device("android-xxhdpi")).map(\.reason)
        #expect(reasons.contains { $0.contains("364–526 dpi") && $0.contains("xxhdpi split") }, "\(reasons)")
    }
}
