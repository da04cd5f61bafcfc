import Delivery
import Foundation
import SizeReporting
import Testing

/// Budget failures as a reviewer reads them: one line per cause, whatever the number of budgets
/// and device classes it breaks, in one size convention.
@Suite("Budget failures")
struct BudgetFailureTests {
    /// Five device classes, each with a base pack holding the asset Logo and a 10 KB Icon.
    static func report(logo: Int) -> SizeReport {
        let devices = ["ipad-2x", "iphone-2x", "iphone-3x", "mac-2x", "tv-1x"].map { id in
            let bytes = logo + 10_000
            return DeviceSizes(device: id, name: id, install: ByteTotals(bytes: bytes, unpacked: bytes), onDemand: ByteTotals(),
                               packs: [PackSize(pack: "base", tags: [], category: .initialInstall, size: ByteTotals(bytes: bytes, unpacked: bytes))],
                               assets: [AssetSize(asset: "Logo", bytes: logo, files: ["variants/Logo@2x.png"], pack: "base"),
                                        AssetSize(asset: "Icon", bytes: 10_000, files: ["variants/Icon@2x.png"], pack: "base")])
        }
        return SizeReport(pipeline: "app", devices: devices)
    }

    @Test("one image grown 22.9 MB past three growth budgets on five device classes is three lines: the asset, its pack, the install")
    func oneCauseIsOneLine() throws {
        let budget = SizeBudget(maxInstallGrowth: .percent(2), maxPackGrowth: .percent(2), maxAssetGrowth: .percent(2))
        let violations = budget.growthViolations(in: Self.report(logo: 23_600_000), previous: Self.report(logo: 708_500))
        #expect(violations.count == 15)
        let lines = BudgetFailure.group(violations).map(\.message)
        #expect(lines == [
            "install grew from 719 KB to 23.6 MB (+22.9 MB) on 5 device classes (ipad-2x, iphone-2x, iphone-3x, mac-2x, tv-1x), most of it asset Logo (+22.9 MB): over max-install-growth 2% (+14 KB allowed)",
            "pack base grew from 719 KB to 23.6 MB (+22.9 MB) on 5 device classes (ipad-2x, iphone-2x, iphone-3x, mac-2x, tv-1x), most of it asset Logo (+22.9 MB): over max-pack-growth 2% (+14 KB allowed)",
            "asset Logo grew from 709 KB to 23.6 MB (+22.9 MB) on 5 device classes (ipad-2x, iphone-2x, iphone-3x, mac-2x, tv-1x): over max-asset-growth 2% (+14 KB allowed)",
        ], "\(lines)")
        // No other unit than Xcode's, and no byte counts in brackets.
        #expect(lines.allSatisfy { !$0.contains("kB") && !$0.contains("bytes") })
        // The page's banner and the Markdown say the same three lines.
        let now = Self.report(logo: 23_600_000)
        let page = SizeReportPage.render(now, violations: violations, problems: nil,
                                         current: ReportedBuild(manifest: Manifest(pipeline: "app", assets: []), folder: nil),
                                         previous: nil, thumbnails: nil)
        let banner = try #require(page.range(of: "<section id=\"budget\"").map { String(page[$0.lowerBound...].prefix { $0 != "\u{0}" }) })
        let bannerItems = banner[..<banner.range(of: "</section>")!.lowerBound].components(separatedBy: "<li>").dropFirst()
        #expect(bannerItems.map { $0.replacingOccurrences(of: "</li>\n", with: "").replacingOccurrences(of: "</ul>", with: "") } == lines)
        let markdown = SizeReportMarkdown.render(now, violations: violations)
        #expect(markdown.split(separator: "\n").filter { $0.hasPrefix("- ") }.map { String($0.dropFirst(2)) } == lines)
    }

    @Test("an asset over a size budget and a growth budget is one line naming both; devices that differ give a range")
    func budgetsOfOneCauseShareItsLine() {
        var now = Self.report(logo: 3_000_000)
        now.devices[0].assets[0].bytes = 2_500_000
        let previous = Self.report(logo: 1_000_000)
        let budget = SizeBudget(maxAsset: 2_000_000, maxAssetGrowth: .bytes(100_000))
        let violations = budget.violations(in: now) + budget.growthViolations(in: now, previous: previous)
        let failures = BudgetFailure.group(violations)
        #expect(failures.map(\.item) == ["asset Logo"])
        #expect(failures.first?.message
            == "asset Logo grew from 1.0 MB to 2.5–3.0 MB (+1.5–2.0 MB) on 5 device classes (ipad-2x, iphone-2x, iphone-3x, mac-2x, tv-1x): over max-asset 2.0 MB and max-asset-growth 100 KB",
            "\(failures.map(\.message))")
    }

    @Test("a new asset is said to be new; past six device classes the rest are counted")
    func newAssetsAndManyDevices() {
        let violation = { (device: String) in
            BudgetViolation(device: device, item: "asset Added", budget: "max-asset-growth 1 B", bytes: 5_000, limit: 1, before: 0)
        }
        let failure = BudgetFailure.group((1...8).map { violation("d\($0)") })
        #expect(failure.map(\.message) == ["asset Added is new at 5 KB on 8 device classes (d1, d2, d3, d4, d5 and 3 more): over max-asset-growth 1 B"])
    }

    @Test("sizes in one convention: Xcode's decimal units, bytes under 1 KB, signed changes")
    func oneSizeConvention() {
        #expect(ByteText.size(0) == "0 B" && ByteText.size(612) == "612 B" && ByteText.size(14_169) == "14 KB")
        #expect(ByteText.size(708_500) == "709 KB" && ByteText.size(23_600_000) == "23.6 MB" && ByteText.size(8_000_000_000) == "8.0 GB")
        #expect(ByteText.xcode(0) == "Zero KB" && ByteText.change(-519_400) == "−519 KB" && ByteText.change(612) == "+612 B")
        #expect(ByteText.range([23_400_000, 23_600_000]) == "23.4–23.6 MB" && ByteText.range([980_000, 1_100_000]) == "980 KB–1.1 MB")
    }
}
