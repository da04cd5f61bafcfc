import Delivery
import Foundation
import Manifests
import Packing
import Pipeline
import Slicing
import TestServers
import TestSupport
import Testing
import TesseraCore

/// Issue 37: each device gets what Xcode, the App Store or Google Play would give it, pinned on
/// minimal catalogs cut from real apps (`Tests/Fixtures/fidelity`, sources and licences kept).
@Suite("Fidelity: what Xcode and Play ship")
struct FidelityTests {
    static let fixtures = "\(Workspace.packageRoot)/Tests/Fixtures/fidelity"

    private func read(_ folder: String) throws -> AssetCatalogReader.Result {
        try FolderCatalogReader().read(root: "\(Self.fixtures)/\(folder)")
    }

    private func files(_ asset: CatalogAsset, _ device: String) throws -> [String] {
        VariantSelector.select(asset, for: try KnownDevices.device(device)).map { String($0.entry.file.split(separator: "/").last!) }
    }

    private func build(_ folder: String, _ yaml: String, into workspace: Workspace) async throws -> (BuildOutcome, Manifest) {
        let definition = try PipelineFileReader.parse(yaml, file: "fidelity.yml")
        let outcome = try await PipelineRunner.run(BuildRequest(definition: definition, inputFolder: "\(Self.fixtures)/\(folder)",
                                                                outputFolder: "\(workspace.root)/out"))
        return (outcome, try ManifestWriter.read(from: outcome.manifestPath))
    }

    @Test("1. right-to-left art ships beside the left-to-right art to every device (IINA's battery icon); Android ldrtl drawables stay resources")
    func rightToLeftShips() throws {
        let iina = try read("rtl/iina")
        let battery = try #require(iina.assets.first { $0.name.name.hasSuffix("battery") })
        for device in ["Mac16,12", "iPhone18,2", "iPad17,1"] {
            #expect(try files(battery, device).sorted() == ["battery-rtl.pdf", "battery.pdf"], "\(device)")
        }
        let oppia = try read("rtl/oppia")
        let drawables = oppia.assets.filter { $0.kind == .data }
        #expect(drawables.flatMap(\.entries).contains { $0.file.contains("drawable-ldrtl/") })
        #expect(drawables.allSatisfy { AppPlacement.of($0, settings: AppBuildSettings()).isInApp })
    }

    @Test("2. high-contrast entries, alone and with dark, ship to every device with a dark mode; never to one without")
    func highContrastShips() throws {
        func entry(_ file: String, _ appearances: [String]) -> CatalogEntry {
            var traits = VariantTraits(idiom: "universal", scale: .x3)
            traits.appearances = appearances
            return CatalogEntry(file: file, traits: traits, format: .png)
        }
        // The appearance combinations cwa's colour sets use, on an image set.
        let asset = CatalogAsset(name: AssetID("risk"), kind: .image, entries: [
            entry("any", []), entry("dark", ["dark"]), entry("hc", ["high"]), entry("dark-hc", ["dark", "high"]),
        ], tags: [], contentsFile: nil)
        let picked = VariantSelector.select(asset, for: try KnownDevices.device("iPhone18,2"))
        #expect(picked.map { "\($0.appearance):\($0.entry.file)" }
            == ["any:any", "dark:dark", "high-contrast:hc", "dark-high-contrast:dark-hc"])
        #expect(VariantSelector.select(asset, for: try KnownDevices.device("iPhone6,1")).map(\.entry.file) == ["any"])
        // The real colour sets read without a warning and keep their contrast entries.
        let cwa = try read("contrast/cwa")
        #expect(cwa.problems.isEmpty, "\(cwa.problems)")
        #expect(cwa.assets.filter { $0.kind == .color }.count == 3)
    }

    @Test("3. a Mac gets the 1x and 2x files of an image set, of its app icon and of an .iconset")
    func macKeepsEveryScale() throws {
        let ddg = try read("mac/duckduckgo")
        let shadow = try #require(ddg.assets.first { $0.name.name.hasSuffix("TabBarShadowRight") })
        #expect(try files(shadow, "Mac16,12") == ["Overflow-Shadow-Right@2x.png", "Overflow-Shadow-Right.png"])
        #expect(try files(shadow, "iPad17,1") == ["Overflow-Shadow-Right@2x.png"])
        let icon = try #require(ddg.assets.first { $0.name.name == "AppIcon" })
        let shipped = try files(icon, "Mac16,12")
        #expect(shipped.count == 10 && shipped.contains("Browser-16.png") && shipped.contains("Browser-512@2x.png"))
        let iina = try read("mac/iina")
        let iconSet = try #require(iina.assets.first { $0.kind == .appIcon })
        #expect(try files(iconSet, "MacBookAir10,1").count == 10)
    }

    @Test("4. every Android density class gets every mipmap density (bundletool's master split), drawables by density")
    func launcherIconsAreNotThinned() throws {
        let wikipedia = try read("mipmap/wikipedia")
        let launcher = try #require(wikipedia.assets.first { $0.name.name == "app/src/main/res/launcher" && $0.kind == .image })
        for bucket in ["android-mdpi", "android-xxhdpi"] {
            #expect(try files(launcher, bucket) == Array(repeating: "launcher.png", count: 5), "\(bucket)")
        }
        let mark = try #require(wikipedia.assets.first { $0.name.name == "app/src/main/res/w_nav_mark" })
        #expect(try files(mark, "android-mdpi").count == 1)
        #expect(AppPlacement.of(launcher, settings: AppBuildSettings()).isInApp)
        #expect(!AppPlacement.of(mark, settings: AppBuildSettings()).isInApp)
    }

    @Test("7. eduID's notification icon (anydpi-v24 vector, m…xxh PNGs, minSdk 24): no bucket gets a PNG; an API 23 spec gets its density's; the vector stays in the app")
    func anydpiNotificationIcon() throws {
        let eduid = try read("anydpi/eduid")
        let icon = try #require(eduid.assets.first { $0.name.name == "app/src/main/res/ic_notification" && $0.kind == .image })
        #expect(icon.entries.count == 4 && icon.xmlDrawables.map(\.file) == ["app/src/main/res/drawable-anydpi-v24/ic_notification.xml"])
        for bucket in ["android-ldpi", "android-mdpi", "android-hdpi", "android-xhdpi", "android-xxhdpi", "android-xxxhdpi"] {
            #expect(try files(icon, bucket).isEmpty, "\(bucket)")
        }
        func spec(_ dpi: Int, api: Int) -> DeviceClass {
            DeviceClass(id: "android-\(dpi)dpi", name: "spec", platform: .android, idiom: "phone", scale: max(1, dpi / 160),
                        densityDPI: dpi, memoryGB: 4, graphicsFamily: nil, displayGamut: .sRGB, supportsDarkMode: true,
                        androidAPILevel: api)
        }
        #expect(VariantSelector.select(icon, for: spec(420, api: 23)).map(\.entry.file)
                == ["app/src/main/res/drawable-xxhdpi/ic_notification.png"])
        #expect(VariantSelector.select(icon, for: spec(420, api: 24)).isEmpty)
        let vector = try #require(eduid.assets.first { $0.name.name == "app/src/main/res/ic_notification" && $0.kind == .data })
        #expect(AppPlacement.of(vector, settings: AppBuildSettings()).isInApp)
    }

    @Test("5. an Icon Composer AppIcon.icon is one app icon kept in the app, never loose images; a missing layer is named")
    func iconComposerIsTheAppIcon() throws {
        let ha = try read("iconcomposer/homeassistant")
        let icon = try #require(ha.assets.first { $0.kind == .iconComposer })
        #expect(icon.name.name == "Sources/App/Resources/AppIcon")
        #expect(icon.entries.map { $0.file.split(separator: "/").suffix(2).joined(separator: "/") }
            == ["AppIcon.icon/icon.json", "Assets/logo-1.svg", "Assets/logo-frame.png"])
        #expect(!ha.assets.contains { $0.kind == .image && $0.entries.contains { $0.file.contains(".icon/") } })
        guard case .app(let reason) = AppPlacement.of(icon, settings: AppBuildSettings()) else {
            Issue.record("the icon is not kept in the app")
            return
        }
        #expect(reason.contains("primary app icon"))
        // A description naming a layer the bundle lacks.
        let workspace = try Workspace()
        try workspace.write(Array(#"{"groups":[{"layers":[{"image-name":"gone.png","name":"gone"}]}]}"#.utf8),
                            as: "Broken.icon/icon.json")
        let broken = try FolderCatalogReader().read(root: workspace.input)
        #expect(broken.problems.map(\.description) == ["Broken.icon/icon.json: error: 'image-name': layer image 'gone.png' is not in the bundle's Assets folder"])
    }

    @Test("6, 7. app icons stay in the app (app/ holds the catalog Xcode compiles), alternates matched as Xcode does, other icon sets named and left out")
    func appIconsStayInTheApp() async throws {
        let workspace = try Workspace()
        let (outcome, manifest) = try await build("appicons/duckduckgo", """
            version: 1
            name: ddg
            app:
              app-icon: AppIcon
              alternate-app-icons: [AppIcon-Yellow]
            stages:
              decode:
              downscale:
              slice:
                devices: ["iPhone18,2", "iPad17,1"]
              pack:
              manifest:
            """, into: workspace)
        #expect(outcome.exitStatus == 0, "\(outcome.report.failures.map(\.message))")
        let entries = manifest.bundles.flatMap(\.entries)
        #expect(!entries.contains { $0.contains("AppIcon") && !$0.contains("small") }, "\(entries)")
        let app = Set(manifest.app?.map(\.path) ?? [])
        // An ordinary untagged image set stays in the app too (pack.untagged: app), written for
        // Xcode with its missing 1x; it is in no pack.
        #expect(!entries.contains { $0.contains("AppIcon-yellow-small") }, "\(entries)")
        let small = "app/AlternateAppIcons.xcassets/UIAssets/AppIcon-yellow-small.imageset"
        #expect(["AppIcon-yellow-small.png", "AppIcon-yellow-small@2x.png", "AppIcon-yellow-small@3x.png", "Contents.json"]
            .allSatisfy { app.contains("\(small)/\($0)") }, "\(app.sorted())")
        #expect(try ContentHash.ofFile(at: "\(workspace.root)/out/\(small)/AppIcon-yellow-small@3x.png")
            == ContentHash.ofFile(at: "\(Self.fixtures)/appicons/duckduckgo/AlternateAppIcons.xcassets/UIAssets/AppIcon-yellow-small.imageset/AppIconYellow29x29@3x.png"))
        // The catalog's Contents.json serves every kept set under it, and is listed once.
        #expect(app.count == manifest.app?.count, "\(manifest.app?.map(\.path) ?? [])")
        #expect(app.contains("app/Assets.xcassets/AppIcon.appiconset/Icon-Light-1024x1024.png"))
        #expect(app.contains("app/Assets.xcassets/Contents.json"))
        #expect(app.contains("app/AlternateAppIcons.xcassets/AppIcon-yellow.appiconset/Contents.json"), "matched without regard to case, as Xcode on macOS")
        #expect(!app.contains { $0.contains("DDG-AppIcon-Alpha") })
        #expect(outcome.report.warnings.contains { $0.file.hasSuffix("DDG-AppIcon-Alpha.appiconset") && $0.message.contains("Xcode does not compile it") },
                "\(outcome.report.warnings.map(\.message))")
        // Every other file is copied as it is.
        for path in app where !path.hasPrefix(small) {
            let source = path.dropFirst("app/".count)
            #expect(try ContentHash.ofFile(at: "\(workspace.root)/out/\(path)")
                == ContentHash.ofFile(at: "\(Self.fixtures)/appicons/duckduckgo/\(source)"))
        }
    }

    @Test("8. an iPhone-only app on an iPad installs its iPhone variants: iPhone icon slots at 2x, never the ipad entries")
    func iPhoneOnlyAppOnIPad() async throws {
        let cwa = try read("iphone-only/cwa")
        let icon = try #require(cwa.assets.first { $0.kind == .appIcon })
        let iPad = try KnownDevices.device("iPad17,1")
        let running = DeviceFamilyRule.device(iPad, runningAppOf: ["iphone"])
        let shipped = VariantSelector.select(icon, for: running).map { String($0.entry.file.split(separator: "/").last!) }
        #expect(!shipped.contains { $0.contains("ipad") || $0.hasPrefix("icon-76") || $0.hasPrefix("icon-83.5") || $0.hasPrefix("icon-72") })
        #expect(shipped.contains("icon-60@2x.png"))
        #expect(DeviceFamilyRule.device(iPad, runningAppOf: ["iphone", "ipad"]).idiom == "ipad")
        // Through a build: the iPad's slice says why it took the iPhone entries.
        let workspace = try Workspace()
        let (outcome, _) = try await build("iphone-only/cwa", """
            version: 1
            name: cwa
            app:
              device-family: 1
            stages:
              decode:
              slice:
                devices: ["iPad17,1"]
              manifest:
            """, into: workspace)
        #expect(outcome.exitStatus == 0, "\(outcome.report.failures.map(\.message))")
        let slice = try String(contentsOfFile: "\(workspace.root)/out/slices/iPad17,1.json", encoding: .utf8)
        #expect(slice.contains("runs the app's iphone variant (device-family)") && !slice.contains("notification-icon~ipad"))
    }

    @Test("a visionOS image-stack app icon, the catalog given as the input, goes to app/ whole: the catalog's, the stack's and every layer's Contents.json, an empty layer's too (Ice Cubes' layout)")
    func imageStackGoesWhole() async throws {
        let workspace = try Workspace()
        let catalog = "\(workspace.input)/Assets.xcassets"
        let info = #""info":{"author":"xcode","version":1}"#
        func write(_ text: String, _ path: String) throws { try workspace.write(Array(text.utf8), as: "Assets.xcassets/\(path)") }
        try write("{\(info)}", "Contents.json")
        try write(#"{"layers":[{"filename":"Front.solidimagestacklayer"},{"filename":"Mid.solidimagestacklayer"},{"filename":"Back.solidimagestacklayer"}],"# + info + "}",
                  "AppIcon.solidimagestack/Contents.json")
        for layer in ["Front", "Mid", "Back"] {
            try write("{\(info)}", "AppIcon.solidimagestack/\(layer).solidimagestacklayer/Contents.json")
            let file = layer == "Mid" ? "" : #""filename":"\#(layer).png","#
            try write(#"{"images":[{\#(file)"idiom":"vision","scale":"2x"}],"# + info + "}",
                      "AppIcon.solidimagestack/\(layer).solidimagestacklayer/Content.imageset/Contents.json")
            if layer != "Mid" {
                try workspace.add("png/pngsuite/basn6a08.png", as: "Assets.xcassets/AppIcon.solidimagestack/\(layer).solidimagestacklayer/Content.imageset/\(layer).png")
            }
        }
        let definition = try PipelineFileReader.parse("""
            version: 1
            name: stack
            stages:
              decode:
              slice:
                devices: ["RealityDevice14,1"]
              pack:
              manifest:
            """, file: "stack.yml")
        let outcome = try await PipelineRunner.run(BuildRequest(definition: definition, inputFolder: catalog,
                                                                outputFolder: "\(workspace.root)/out"))
        #expect(outcome.exitStatus == 0, "\(outcome.report.failures.map(\.message))")
        let manifest = try ManifestWriter.read(from: outcome.manifestPath)
        let app = Set(manifest.app?.map(\.path) ?? [])
        var expected: Set<String> = ["app/Contents.json", "app/AppIcon.solidimagestack/Contents.json"]
        for layer in ["Front", "Mid", "Back"] {
            expected.insert("app/AppIcon.solidimagestack/\(layer).solidimagestacklayer/Contents.json")
            expected.insert("app/AppIcon.solidimagestack/\(layer).solidimagestacklayer/Content.imageset/Contents.json")
        }
        #expect(expected.subtracting(app).isEmpty, "missing: \(expected.subtracting(app).sorted())")
        #expect(app.contains("app/AppIcon.solidimagestack/Front.solidimagestacklayer/Content.imageset/Front.png"))
        #expect(!manifest.bundles.flatMap(\.entries).contains { $0.contains("AppIcon") })
    }

    @Test("5. a visionOS icon stack that is not the primary icon keeps its 1024 px layers in the app: none in Vision Pro's pack, even with untagged: pack")
    func nonPrimaryVisionStackStaysInTheApp() async throws {
        let workspace = try Workspace()
        let info = #""info":{"author":"xcode","version":1}"#
        func write(_ text: String, _ path: String) throws { try workspace.write(Array(text.utf8), as: "Assets.xcassets/\(path)") }
        try write("{\(info)}", "Contents.json")
        for stack in ["AppIcon", "AppIcon-Holiday"] {
            try write(#"{"layers":[{"filename":"Front.solidimagestacklayer"},{"filename":"Back.solidimagestacklayer"}],"# + info + "}",
                      "\(stack).solidimagestack/Contents.json")
            for layer in ["Front", "Back"] {
                try write("{\(info)}", "\(stack).solidimagestack/\(layer).solidimagestacklayer/Contents.json")
                try write(#"{"images":[{"filename":"\#(layer).png","idiom":"vision","scale":"2x"}],"# + info + "}",
                          "\(stack).solidimagestack/\(layer).solidimagestacklayer/Content.imageset/Contents.json")
                try workspace.write(try AppSplitTests.png(1024, seed: layer.count),
                                    as: "Assets.xcassets/\(stack).solidimagestack/\(layer).solidimagestacklayer/Content.imageset/\(layer).png")
            }
        }
        try workspace.add("png/pngsuite/basn6a08.png", as: "Assets.xcassets/Photo.imageset/photo.png")
        try write(#"{"images":[{"filename":"photo.png","idiom":"universal","scale":"2x"}],"# + info + "}", "Photo.imageset/Contents.json")
        let definition = try PipelineFileReader.parse("""
            version: 1
            name: stacks
            stages:
              decode:
              slice:
                devices: ["RealityDevice14,1"]
              pack:
                untagged: pack
              manifest:
            """, file: "stacks.yml")
        let outcome = try await PipelineRunner.run(BuildRequest(definition: definition, inputFolder: "\(workspace.input)/Assets.xcassets",
                                                                outputFolder: "\(workspace.root)/out"))
        #expect(outcome.exitStatus == 0, "\(outcome.report.failures.map(\.message))")
        let manifest = try ManifestWriter.read(from: outcome.manifestPath)
        let packed = manifest.bundles.flatMap(\.entries)
        #expect(packed.contains { $0.contains("Photo") }, "the untagged image is packed: \(packed)")
        #expect(!packed.contains { $0.contains("AppIcon") }, "\(packed)")
        let app = Set(manifest.app?.map(\.path) ?? [])
        #expect(app.contains("app/AppIcon-Holiday.solidimagestack/Back.solidimagestacklayer/Content.imageset/Back.png"), "\(app.sorted())")
    }

    @Test("a Contents.json with a comma before a closing bracket (DuckDuckGo's Import-128, which Xcode builds) is read as Xcode reads it")
    func trailingCommaIsRead() throws {
        let ddg = try read("mac/duckduckgo")
        let set = try #require(ddg.assets.first { $0.name.name.hasSuffix("Import-128") })
        #expect(set.entries.map { $0.file.split(separator: "/").last! } == ["Import-128.pdf"] && set.templateRenderingIntent == "template")
        #expect(!ddg.problems.contains { $0.file.hasSuffix("Import-128.imageset/Contents.json") })
    }

    @Test("9. a 2x file made from a 3x master says scale=2x in its bundle record (bundle ls), not its master's 3x")
    func downscaledRecordsSayTheirScale() async throws {
        let workspace = try Workspace()
        try workspace.add("png/pngsuite/basn6a08.png", as: "icon@3x.png")
        let definition = try PipelineFileReader.parse("""
            version: 1
            name: scales
            stages:
              decode:
              downscale:
              slice:
                devices: ["iPhone12,8"]
              pack:
                untagged: pack
              manifest:
            """, file: "scales.yml")
        let output = "\(workspace.root)/out"
        let outcome = try await PipelineRunner.run(BuildRequest(definition: definition, inputFolder: workspace.input,
                                                                outputFolder: output))
        #expect(outcome.exitStatus == 0)
        let manifest = try ManifestWriter.read(from: outcome.manifestPath)
        let bundle = try #require(manifest.bundles.first { $0.device == "iPhone12,8" })
        let list = try await TesseraProcess.run(["bundle", "ls", "\(output)/\(bundle.path)"]).stdout
        let line = try #require(list.split(separator: "\n").first { $0.hasPrefix("assets/icon@2x.png\t") })
        #expect(line.split(separator: "\t").last == "appearance=any;idiom=universal;scale=2x")
    }

    @Test("6. a visionOS solid image stack or tvOS brand assets named as the app icon stay in the app; another stack ships")
    func stackedIconsStayInTheApp() {
        func layer(_ file: String) -> CatalogAsset {
            CatalogAsset(name: AssetID("x"), kind: .image, entries: [CatalogEntry(file: file, traits: VariantTraits(idiom: "vision"))],
                         tags: [], contentsFile: nil)
        }
        let settings = AppBuildSettings()
        #expect(AppPlacement.of(layer("A.xcassets/AppIcon.solidimagestack/Front.solidimagestacklayer/Content.imageset/f.png"),
                                settings: settings).isInApp)
        #expect(!AppPlacement.of(layer("A.xcassets/Poster.imagestack/Front.imagestacklayer/Content.imageset/f.png"),
                                 settings: settings).isInApp)
        // A visionOS icon stack that is not the primary icon stays in the app too (issue 53, item 5).
        let holiday = AppPlacement.of(layer("A.xcassets/AppIcon-Holiday.solidimagestack/Back.solidimagestacklayer/Content.imageset/b.png"),
                                      settings: settings)
        #expect(holiday.isInApp)
        if case .app(let reason) = holiday { #expect(reason.contains("AppIcon-Holiday")) }
        var tv = settings
        tv.appIcon = "App Icon & Top Shelf Image"
        #expect(AppPlacement.of(layer("A.xcassets/App Icon & Top Shelf Image.brandassets/App Icon.imagestack/Back.imagestacklayer/Content.imageset/b.png"),
                                settings: tv).isInApp)
    }

    @Test("9. a pack is as eager as its most eager tag; a watch takes the tightest screen-width bound it meets and names it")
    func packCategoryAndWidthBound() throws {
        let planner = PackPlanner(initialInstallTags: ["intro"], prefetchOrder: ["level1"])
        #expect(planner.pack(for: ["intro", "bosses"]).category == .initialInstall)
        #expect(planner.pack(for: ["level1", "bosses"]).category == .prefetch)
        #expect(planner.pack(for: ["bosses"]).category == .onDemand)
        func entry(_ file: String, _ width: String) -> CatalogEntry {
            var traits = VariantTraits(idiom: "watch", scale: .x2)
            traits.screenWidth = ScreenWidthCondition(parsing: width)
            return CatalogEntry(file: file, traits: traits, format: .png)
        }
        let asset = CatalogAsset(name: AssetID("face"), kind: .image,
                                 entries: [entry("small", "<=145"), entry("mid", ">161"), entry("large", ">183")],
                                 tags: [], contentsFile: nil)
        let picked = VariantSelector.select(asset, for: try KnownDevices.device("Watch7,2"))
        #expect(picked.map(\.entry.file) == ["large"])
        #expect(picked.first?.reason.contains("meets >183") == true)
    }
}
