import Decoding
import Delivery
import Encoding
import Foundation
import Pipeline
import SizeReporting
import TestServers
import TestSupport
import Testing
import TesseraCore

/// The size report's insights (issue 52), measured on a built catalog of generated PNGs: each
/// kind of insight from the image made for it, with the bytes Tessera's own encoders give.
@Suite("Size report insights")
struct SizeInsightsTests {
    /// A catalog of 3x masters (copied into the build as they are; 2x and 1x made from them):
    /// `Stored` an uncompressed PNG, `Twin` and `TwinCopy` the same file, `Opaque` RGBA whose
    /// every pixel is opaque, `Photo` a noisy gradient.
    static func layOut(_ workspace: Workspace) throws -> [String: [UInt8]] {
        let masters: [String: [UInt8]] = [
            "Stored": try PNGEncoder(compressionLevel: 0).encode(try gradient(width: 150, height: 120, noise: 0), iccProfile: nil),
            "Twin": try PNGEncoder().encode(try gradient(width: 90, height: 90, noise: 0, seed: 3), iccProfile: nil),
            "TwinCopy": try PNGEncoder().encode(try gradient(width: 90, height: 90, noise: 0, seed: 3), iccProfile: nil),
            "Opaque": try PNGEncoder().encodeKeepingAlpha(try gradient(width: 120, height: 96, noise: 0, seed: 5), iccProfile: nil),
            "Photo": try PNGEncoder().encode(try gradient(width: 240, height: 180, noise: 6, seed: 7), iccProfile: nil),
        ]
        try workspace.write(Array(#"{"info":{"author":"xcode","version":1}}"#.utf8), as: "Insights.xcassets/Contents.json")
        for (name, bytes) in masters {
            try workspace.write(bytes, as: "Insights.xcassets/\(name).imageset/\(name)@3x.png")
            let contents = #"{"images":[{"filename":"\#(name)@3x.png","idiom":"universal","scale":"3x"}],"info":{"author":"xcode","version":1}}"#
            try workspace.write(Array(contents.utf8), as: "Insights.xcassets/\(name).imageset/Contents.json")
        }
        return masters
    }

    /// Opaque RGBA: a smooth gradient with a colour from `seed`, plus uniform noise of ±`noise`.
    static func gradient(width: Int, height: Int, noise: Int, seed: UInt64 = 1) throws -> Bitmap {
        var random = seed &* 0x9E37_79B9_7F4A_7C15 | 1
        var pixels = [UInt8](repeating: 255, count: width * height * 4)
        for y in 0..<height {
            for x in 0..<width {
                let base = [x * 255 / width, y * 255 / height, (x + y + Int(seed) * 20) * 127 / (width + height)]
                for channel in 0..<3 {
                    random ^= random << 13; random ^= random >> 7; random ^= random << 17
                    let jitter = noise == 0 ? 0 : Int(random % UInt64(2 * noise + 1)) - noise
                    pixels[(y * width + x) * 4 + channel] = UInt8(max(0, min(255, base[channel] + jitter)))
                }
            }
        }
        return try Bitmap(width: width, height: height, format: .rgba8, alpha: .straight, pixels: pixels)
    }

    static func build(_ workspace: Workspace, report: String = "") async throws -> BuildOutcome {
        _ = try layOut(workspace)
        return try await SizeReportBuilds.build(workspace.input, into: "\(workspace.root)/out", report: report)
    }

    @Test("an uncompressed PNG gets a lossless insight with the exact bytes Tessera's best effort saves; identical files a duplicate insight; an opaque RGBA an opaque-alpha insight; a noisy photograph a JPEG insight with its PSNR")
    func eachKindFromItsImage() async throws {
        let workspace = try Workspace()
        let masters = try Self.layOut(workspace)
        let outcome = try await SizeReportBuilds.build(workspace.input, into: "\(workspace.root)/out")
        let manifest = try #require(outcome.manifest)
        let report = SizeReport.make(manifest)
        let insights = SizeInsights.make(report, manifest: manifest, folder: "\(workspace.root)/out",
                                         measurer: ImageSavingsMeasurer(jpegQuality: 90))
        #expect(insights.unmeasuredImages == 0 && insights.measuredImages > 0)
        let phone = try #require(insights.devices.first { $0.device == "iPhone18,2" }, "a 3x device gets the masters")
        func insight(_ kind: SizeInsight.Kind, _ asset: String) -> SizeInsight? {
            phone.insights.first { $0.kind == kind && $0.assets == [asset] }
        }

        // Lossless: the stored master, re-encoded by Tessera at its best effort, to the byte.
        let stored = try #require(insight(.lossless, "Stored"), "\(phone.insights)")
        let best = try PNGEncoder(effort: .max).encode(
            try ImageDecoders.decode(SourceBytes(bytes: masters["Stored"]!, path: "s.png")).bitmap, iccProfile: nil)
        #expect(stored.bytes == masters["Stored"]!.count && stored.estimate == best.count)
        #expect(stored.saving == masters["Stored"]!.count - best.count && stored.saving > stored.bytes / 2)
        #expect(stored.files.count == 1 && stored.files[0].hasSuffix("@3x.png"))

        // Duplicates: the twins' 3x copies, and the 1x and 2x made from them, on every device.
        let twins = try #require(phone.insights.first { $0.kind == .duplicate && $0.files.contains { $0.contains("@3x") } })
        #expect(twins.assets == ["Twin", "TwinCopy"] && twins.files.count == 2)
        #expect(twins.bytes == masters["Twin"]!.count && twins.saving == masters["Twin"]!.count)
        for device in insights.devices {
            #expect(device.insights.contains { $0.kind == .duplicate && $0.assets == ["Twin", "TwinCopy"] }, "\(device.device)")
        }

        // Opaque alpha: the channel's cost, measured; the RGB twin of it (a made 2x) has none.
        let opaque = try #require(insight(.opaqueAlpha, "Opaque"))
        let decoded = try ImageDecoders.decode(SourceBytes(bytes: masters["Opaque"]!, path: "o.png")).bitmap
        #expect(opaque.saving == (try PNGEncoder(effort: .fast).encodeKeepingAlpha(decoded, iccProfile: nil).count)
            - (try PNGEncoder(effort: .fast).encode(decoded, iccProfile: nil).count))
        #expect(opaque.saving > 0)
        #expect(!insights.devices.contains { $0.insights.contains { $0.kind == .opaqueAlpha && $0.assets != ["Opaque"] } })

        // JPEG: the photograph, far smaller, close in PSNR; the flat gradients are no photographs.
        let photo = try #require(insight(.jpeg, "Photo"), "\(phone.insights)")
        #expect(photo.quality == 90 && (photo.psnr ?? 0) >= InsightRules.jpegMinimumPSNR && (photo.psnr ?? 99) < 99)
        #expect(photo.estimate! * 2 <= photo.bytes && photo.saving == photo.bytes - photo.estimate!)
        #expect(!phone.insights.contains { $0.kind == .jpeg && $0.assets != ["Photo"] })

        // Biggest saving first, and the same build gives the same insights.
        #expect(phone.insights.map(\.saving) == phone.insights.map(\.saving).sorted(by: >))
        #expect(insights == SizeInsights.make(report, manifest: manifest, folder: "\(workspace.root)/out",
                                              measurer: ImageSavingsMeasurer(jpegQuality: 90)))
    }

    @Test("the report stage writes the insights into the page, the Markdown and size-report.json, the same bytes every time; tessera report --no-insights and the stage's insights: false leave them out")
    func filesAndTheSwitch() async throws {
        let workspace = try Workspace()
        let outcome = try await Self.build(workspace, report: "    max-install: 1GB\n")
        #expect(outcome.exitStatus == 0)
        let out = "\(workspace.root)/out"
        func read(_ folder: String, _ name: String) throws -> String { try String(contentsOfFile: "\(folder)/\(name)", encoding: .utf8) }
        let json = try #require(try JSONSerialization.jsonObject(with: Data(read(out, "size-report.json").utf8)) as? [String: Any])
        let devices = try #require((json["insights"] as? [String: Any])?["devices"] as? [[String: Any]])
        #expect(devices.count == outcome.manifest?.deviceClasses.count)
        #expect(try read(out, "size-report.md").contains("### Insights\n\n| Asset | Insight | Saving | Device classes |"))
        #expect(try read(out, "size-report.html").contains("<section id=\"insights-section\""))
        #expect(try read(out, "size-report.html").contains("data-insight=\"lossless\""))

        let again = try await TesseraProcess.run(["report", out, "--output", "\(workspace.root)/again"])
        #expect(again.status == 0, "\(again.stderr)")
        #expect(again.stdout.contains("### Insights"))
        for name in ["size-report.json", "size-report.md", "size-report.html"] {
            #expect(try read(out, name) == read("\(workspace.root)/again", name), "\(name): the same build, the same report")
        }

        let without = try await TesseraProcess.run(["report", out, "--no-insights", "--output", "\(workspace.root)/without"])
        #expect(without.status == 0, "\(without.stderr)")
        #expect(!without.stdout.contains("Insights"))
        let plain = try #require(try JSONSerialization.jsonObject(
            with: Data(read("\(workspace.root)/without", "size-report.json").utf8)) as? [String: Any])
        #expect(plain["insights"] == nil && plain["report"] != nil)
        #expect(try !read("\(workspace.root)/without", "size-report.html").contains("insights-section"))

        let off = try await SizeReportBuilds.build(workspace.input, into: "\(workspace.root)/off", report: "    insights: false\n")
        #expect(off.exitStatus == 0)
        #expect(try !read("\(workspace.root)/off", "size-report.json").contains("\"insights\""))
        #expect(try !read("\(workspace.root)/off", "size-report.md").contains("Insights"))
    }
}
