import Delivery
import SizeReporting
import Synchronization
import Testing
import TesseraCore

/// The insights' rules on their own, with a measurer that answers from a table: which images are
/// measured (each content once, the biggest first, within the budget), which measurements become
/// insights, and what counts as a photograph.
@Suite("Size insight rules")
struct SizeInsightRulesTests {
    /// Answers from `answers` by file name and records each file it was asked for.
    final class TableMeasurer: ImageSavingsMeasuring {
        let answers: [String: ImageMeasurement]
        let asked = Mutex<[String]>([])
        init(_ answers: [String: ImageMeasurement]) { self.answers = answers }

        func measure(file path: String) -> ImageMeasurement? {
            let name = String(path.split(separator: "/").last!)
            asked.withLock { $0.append(name) }
            return answers[name]
        }
    }

    static func variant(_ name: String, bytes: Int, content: String, source: String? = nil) -> VariantEntry {
        VariantEntry(scale: .x1, path: "variants/\(name).png", format: .png, width: 100, height: 100, bytes: bytes,
                     sha256: ContentHash.of(Array(content.utf8)), generated: false, source: source ?? "A.xcassets/\(name).imageset/\(name).png")
    }

    /// One device getting every asset's variant, as what stays in the app.
    static func build(_ variants: [String: VariantEntry]) -> (Manifest, SizeReport) {
        let manifest = Manifest(pipeline: "p", assets: variants.map { AssetEntry(name: AssetID($0.key), variants: [$0.value]) })
        let assets = variants.map { AssetSize(asset: $0.key, bytes: $0.value.bytes, files: [$0.value.path], pack: SizeReport.appPack) }
        let device = DeviceSizes(device: "iPhone18,2", name: "Phone", install: ByteTotals(), onDemand: ByteTotals(), packs: [],
                                 assets: assets.sorted { $0.asset < $1.asset })
        return (manifest, SizeReport(pipeline: "p", devices: [device]))
    }

    @Test("each content is measured once, the biggest first, within the budget; the rest are counted")
    func budgetAndOnce() {
        let (manifest, report) = Self.build([
            "Big": Self.variant("Big", bytes: 9_000, content: "big"),
            "Twin": Self.variant("Twin", bytes: 5_000, content: "twin"),
            "TwinCopy": Self.variant("TwinCopy", bytes: 5_000, content: "twin"),
            "Small": Self.variant("Small", bytes: 1_000, content: "small"),
        ])
        let measurer = TableMeasurer([:])
        let insights = SizeInsights.make(report, manifest: manifest, folder: "/build", measurer: measurer,
                                         budget: InsightRules.Budget(images: 2, pixels: 1_000_000))
        #expect(measurer.asked.withLock { $0.sorted() } == ["Big.png", "Twin.png"])
        #expect(insights.measuredImages == 2 && insights.unmeasuredImages == 1)
        // Duplicates need no measuring: every copy but one is wasted.
        #expect(insights.devices[0].insights == [SizeInsight(kind: .duplicate, saving: 5_000, assets: ["Twin", "TwinCopy"],
                                                             files: ["variants/Twin.png", "variants/TwinCopy.png"], bytes: 5_000)])
        #expect(insights.devices[0].insights[0].advice == "2 identical files of 5 KB: the extra copy adds 5 KB")
        // Without the build's files, nothing is measured.
        let unread = SizeInsights.make(report, manifest: manifest, folder: nil, measurer: measurer)
        #expect(unread.measuredImages == 0 && unread.unmeasuredImages == 3 && unread.devices[0].insights.count == 1)
    }

    @Test("a measurement becomes an insight past its threshold: 10% lossless, an opaque alpha, a JPEG of at most half at 35 dB and up, never for an app icon; biggest saving first")
    func thresholds() {
        let (manifest, report) = Self.build([
            "Tight": Self.variant("Tight", bytes: 10_000, content: "tight"),
            "Loose": Self.variant("Loose", bytes: 10_000, content: "loose"),
            "Photo": Self.variant("Photo", bytes: 40_000, content: "photo"),
            "Blurry": Self.variant("Blurry", bytes: 40_000, content: "blurry"),
            "Icon": Self.variant("Icon", bytes: 30_000, content: "icon", source: "A.xcassets/AppIcon.appiconset/icon.png"),
        ])
        let insights = SizeInsights.make(report, manifest: manifest, folder: "/build", measurer: TableMeasurer([
            "Tight.png": ImageMeasurement(bytes: 10_000, losslessBytes: 9_001),
            "Loose.png": ImageMeasurement(bytes: 10_000, losslessBytes: 9_000, opaqueAlphaCost: 700),
            "Photo.png": ImageMeasurement(bytes: 40_000, losslessBytes: nil, jpeg: JPEGEstimate(bytes: 20_000, quality: 90, psnr: 35)),
            "Blurry.png": ImageMeasurement(bytes: 40_000, losslessBytes: nil, jpeg: JPEGEstimate(bytes: 4_000, quality: 90, psnr: 34.99)),
            "Icon.png": ImageMeasurement(bytes: 30_000, losslessBytes: 20_000, jpeg: JPEGEstimate(bytes: 3_000, quality: 90, psnr: 45)),
        ]))
        let found = insights.devices[0].insights
        #expect(found.map(\.kind) == [.jpeg, .lossless, .lossless, .opaqueAlpha], "\(found)")
        #expect(found.map(\.assets) == [["Photo"], ["Icon"], ["Loose"], ["Loose"]])
        #expect(found.map(\.saving) == [20_000, 10_000, 1_000, 700])
        #expect(found[0].psnr == 35 && found[0].quality == 90 && found[0].estimate == 20_000)
        #expect(found[0].advice == "40 KB PNG photograph is 20 KB as JPEG at quality 90 (−50%, PSNR 35.0 dB)")
        #expect(found[2].advice == "10 KB PNG re-encodes losslessly to 9 KB (−10%)")
    }

    @Test("a photograph: opaque, 64×64 pixels or more, 1,024 colours or more, and 6 bits a pixel or more as PNG")
    func photographs() {
        var random: UInt64 = 0x2545_F491_4F6C_DD1D
        let noisy = (0..<(64 * 64)).flatMap { _ -> [UInt8] in
            random ^= random << 13; random ^= random >> 7; random ^= random << 17
            return [UInt8(truncatingIfNeeded: random), UInt8(truncatingIfNeeded: random >> 8), UInt8(truncatingIfNeeded: random >> 16), 255]
        }
        let photographic = { (pixels: [UInt8], width: Int, bytes: Int) in
            pixels.withUnsafeBufferPointer { InsightRules.looksPhotographic(rgba: $0, width: width, height: pixels.count / 4 / width, fileBytes: bytes) }
        }
        #expect(photographic(noisy, 64, 64 * 64))
        #expect(!photographic(noisy, 64, 64 * 64 * 6 / 8 - 1), "under 6 bits a pixel")
        #expect(!photographic(Array(noisy.prefix(63 * 64 * 4)), 64, 64 * 64), "under 64×64")
        var translucent = noisy
        translucent[4 * 100 + 3] = 254
        #expect(!photographic(translucent, 64, 64 * 64))
        let fewColours = noisy.enumerated().map { $0.offset % 4 == 3 ? 255 : $0.element & 0xE0 }
        #expect(!photographic(fewColours, 64, 64 * 64), "at most 512 colours")
    }
}
