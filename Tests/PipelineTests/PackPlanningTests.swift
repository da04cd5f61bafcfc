import Delivery
import Foundation
import JobEngine
@testable import Pipeline
import Slicing
import TestSupport
import Testing
import TesseraCore

/// The planning side of the pack stage: what each bundle record says about its image.
@Suite("Pack stage: planning")
struct PackPlanningTests {
    private func row(_ appearance: Appearance, _ traits: VariantTraits, _ presentation: AssetPresentation? = nil) -> SliceRow {
        SliceRow(asset: "a", appearance: appearance, traits: traits, action: "use", path: "variants/a@3x.png", tags: [],
                 presentation: presentation, reason: "")
    }

    @Test("record traits list every key the row sets, sorted by key, and scale any for a single-scale entry")
    func recordTraits() {
        var wide = VariantTraits(idiom: "ipad", scale: .x2)
        wide.displayGamut = .displayP3
        wide.size = "83.5x83.5"
        var srgb = VariantTraits(idiom: "iphone", scale: .x3)
        srgb.displayGamut = .sRGB
        #expect(BundleJobs.recordTraits(of: row(.any, VariantTraits(scale: .x3)))
            == "appearance=any;idiom=universal;scale=3x")
        #expect(BundleJobs.recordTraits(of: row(.dark, srgb)) == "appearance=dark;idiom=iphone;scale=3x")
        #expect(BundleJobs.recordTraits(of: row(.tinted, wide, AssetPresentation(renderingIntent: "template",
                                                                                 preservesVectorRepresentation: true)))
            == "appearance=tinted;gamut=display-P3;idiom=ipad;preserves-vector=true;rendering-intent=template;scale=2x;size=83.5x83.5")
        #expect(BundleJobs.recordTraits(of: row(.any, VariantTraits(), AssetPresentation(renderingIntent: "original")))
            == "appearance=any;idiom=universal;rendering-intent=original;scale=any")
        // Image slicing, in points, between rendering-intent and scale.
        let slicing = ImageResizing(mode: .threePartHorizontal, center: .init(mode: .stretch, width: 2),
                                    capInsets: .init(top: 5, left: 10, bottom: 5, right: 12.5))
        #expect(BundleJobs.recordTraits(of: row(.any, VariantTraits(scale: .x2), AssetPresentation(renderingIntent: "template", resizing: slicing)))
            == "appearance=any;idiom=universal;rendering-intent=template;resizing=3-part-horizontal/stretch/0,10,0,12.5;scale=2x")
    }
}

/// Device selections decide once per shape of image (same traits, files in the same order).
@Suite("Device selection: shared decisions")
struct SharedSelectionTests {
    private static func json(_ selections: [DeviceSelection]) throws -> [UInt8] {
        try StableJSON.encode(selections.map(\.rows))
    }

    @Test("decisions shared between images of one shape are those each image gets on its own, on every device")
    func sameAsOneByOne() throws {
        let workspace = try Workspace()
        // Ties broken by file name, in both orders; appearances, idioms, scales, Android densities.
        func set(_ name: String, _ images: [[String: String]]) throws {
            let data = try JSONSerialization.data(withJSONObject: ["images": images])
            try workspace.write(Array(data), as: "A.xcassets/\(name).imageset/Contents.json")
            for image in images { try workspace.add("png/pngsuite/basn2c08.png", as: "A.xcassets/\(name).imageset/\(image["filename"]!)") }
        }
        try set("ZFirst", [["filename": "z.png", "idiom": "universal", "scale": "2x"],
                           ["filename": "a.png", "idiom": "universal", "scale": "2x"]])
        try set("AFirst", [["filename": "a.png", "idiom": "universal", "scale": "2x"],
                           ["filename": "z.png", "idiom": "universal", "scale": "2x"]])
        try set("Dark", [["filename": "d.png", "idiom": "universal", "scale": "3x"],
                         ["filename": "n.png", "idiom": "iphone", "scale": "2x"]])
        for name in ["one", "two", "three"] {
            try workspace.add("png/pngsuite/basn2c08.png", as: "icons/\(name)@3x.png")
            try workspace.add("png/pngsuite/basn2c08.png", as: "icons/\(name)~ipad@2x.png")
        }
        for folder in ["drawable-xhdpi", "drawable-night-xxhdpi"] {
            try workspace.add("png/pngsuite/basn2c08.png", as: "res/\(folder)/logo.png")
        }
        let fixture = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .appendingPathComponent("Fixtures/catalogs/ThinningApp").path
        for root in [workspace.input, fixture] {
            let assets = try FolderCatalogReader().read(root: root).assets
            let shared = DeviceSelection.make(devices: KnownDevices.all, assets: assets, outputs: PlannedOutputs())
            let alone = KnownDevices.all.map { DeviceSelection(device: $0, assets: assets, outputs: PlannedOutputs()) }
            #expect(try Self.json(shared) == Self.json(alone))
            #expect(shared.map(\.rows.count).reduce(0, +) > KnownDevices.all.count)
        }
    }
}

/// The slice job keeps what makes the rows, not the rows (issue 54, item 14): every device's rows
/// held from planning to the end of the build were about 4.4 KB an asset.
@Suite("Slice job: rows made when it runs")
struct SliceJobInputTests {
    @Test("the slice job's input holds no rows, only their digests; each device's selection made alone is its part of all of them")
    func inputHoldsNoRows() throws {
        let fixture = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .appendingPathComponent("Fixtures/catalogs/ThinningApp").path
        let assets = try FolderCatalogReader().read(root: fixture).assets
        let recipe = SelectionRecipe(assets: assets, outputs: PlannedOutputs(), renders: [], membership: nil,
                                     app: AppBuildSettings(), keeping: nil)
        let selections = recipe.make(for: KnownDevices.all)
        #expect(selections.map(\.rows.count).reduce(0, +) > KnownDevices.all.count)
        for selection in selections {
            #expect(try StableJSON.encode(recipe.make(for: selection.device).rows) == StableJSON.encode(selection.rows))
        }
        var graph = JobGraph()
        let manifest = graph.add(Job<BuiltManifest>(key: JobKey(kind: .manifest, version: 1), kind: .manifest,
                                                    subject: "manifest") { _ in throw CancellationError() })
        let stage = SliceStage(outputFolder: "out")
        let input = SliceStage.Input(manifest: Upstream(manifest), devices: selections.map { selection in
            SliceStage.PlannedDevice(device: selection.device, rows: try! InputDigest.of(selection.rows))
        }, selection: recipe)
        #expect(!Self.holdsRows(input))
        // The key still follows the rows: another device's rows, another key.
        var other = selections
        other.swapAt(0, other.count - 1)
        let swapped = SliceStage.Input(manifest: Upstream(manifest), devices: other.map { selection in
            SliceStage.PlannedDevice(device: selection.device, rows: try! InputDigest.of(selection.rows))
        }, selection: recipe)
        #expect(stage.key(of: input) != stage.key(of: swapped))
    }

    @Test("a device's rows made a part of the assets at a time, parts of any size, are its rows made at once")
    func rowsInParts() throws {
        let fixture = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .appendingPathComponent("Fixtures/catalogs/ThinningApp").path
        let assets = try FolderCatalogReader().read(root: fixture).assets
        #expect(assets.count > 3)
        let recipe = SelectionRecipe(assets: assets, outputs: PlannedOutputs(), renders: [], membership: nil,
                                     app: AppBuildSettings(), keeping: nil)
        for device in KnownDevices.all {
            let whole = try StableJSON.encode(recipe.make(for: device).rows)
            for part in [1, 2, 3, assets.count] {
                let rows = stride(from: 0, to: assets.count, by: part).flatMap { start in
                    recipe.rows(for: device, assets: start..<min(assets.count, start + part))
                }
                #expect(try StableJSON.encode(rows) == whole, "\(device.id), \(part) assets a part")
            }
        }
    }

    /// Whether any stored property of `value`, however deep, is a slice row.
    private static func holdsRows(_ value: Any) -> Bool {
        if value is SliceRow { return true }
        return Mirror(reflecting: value).children.contains { holdsRows($0.value) }
    }
}
