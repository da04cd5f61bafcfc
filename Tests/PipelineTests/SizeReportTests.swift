import Delivery
import Foundation
import Manifests
import Pipeline
import SizeReporting
import TestServers
import TestSupport
import Testing
import TesseraCore

/// Size reports measured from real builds, diffs between two builds, budgets (issue 27).
@Suite("Size reports")
struct SizeReportTests {
    @Test("per device: install is the initial-install bundles plus the device's share of the app, on demand the other bundles, and each asset's share is its files")
    func measuresTheManifest() async throws {
        let workspace = try Workspace()
        try SizeReportBuilds.layOut(workspace, variant: 1)
        let outcome = try await SizeReportBuilds.build("\(workspace.input)/v1", into: "\(workspace.root)/out")
        let manifest = try ManifestWriter.read(from: outcome.manifestPath)
        let report = SizeReport.make(manifest)
        #expect(report.devices.map(\.device) == manifest.deviceClasses.map(\.id))
        let packs = Dictionary(uniqueKeysWithValues: manifest.packs.map { ($0.id, $0.category) })
        for device in report.devices {
            let bundles = manifest.bundles.filter { $0.device == device.device }
            // The install is the initial-install bundles and the device's share of the app.
            let share = manifest.appShares?.first { $0.device == device.device }
            #expect(share != nil && device.app.bytes == share?.bytes, "untagged sets stay in the app")
            #expect(device.install.bytes == bundles.filter { packs[$0.pack] == .initialInstall }.reduce(0) { $0 + $1.bytes }
                + (share?.bytes ?? 0))
            #expect(device.onDemand.bytes == bundles.filter { packs[$0.pack] != .initialInstall }.reduce(0) { $0 + $1.bytes })
            #expect(device.onDemand.bytes > 0, "the ODR sample has tagged packs")
            // Largest first; every asset file is one of the manifest's variants.
            #expect(device.assets.map(\.bytes) == device.assets.map(\.bytes).sorted(by: >))
            let variants = Set(manifest.assets.flatMap { $0.variants.map(\.path) })
            #expect(device.assets.flatMap(\.files).allSatisfy(variants.contains))
        }
        let text = ThinningSizeReportText.render(report)
        #expect(text.hasPrefix("App Thinning Size Report for All Variants of app-thinning\n\nVariant: app-thinning-iPhone18,2.ipa\n"))
        #expect(text.contains("\nApp size: ") && text.contains("\nOn Demand Resources size: "))
        #expect(ThinningSizeReportText.size(0) == "Zero KB" && ThinningSizeReportText.size(519_400) == "519 KB"
                && ThinningSizeReportText.size(6_700_000) == "6.7 MB")
    }

    @Test("against a previous build: the changed, added and removed assets are listed with their deltas")
    func diffsTwoBuilds() async throws {
        let workspace = try Workspace()
        let diff = try await SizeReportBuilds.twoBuilds(workspace)
        let result = try await TesseraProcess.run(["report", "\(workspace.root)/after", "--against", "\(workspace.root)/before",
                                             "--output", "\(workspace.root)/report"])
        #expect(result.status == 0, "\(result.stderr)")
        let document = try #require(try JSONSerialization.jsonObject(
            with: Data(contentsOf: URL(fileURLWithPath: "\(workspace.root)/report/size-report.json"))) as? [String: Any])
        let changes = try #require(((document["report"] as? [String: Any])?["changes"] as? [String: Any])?["assets"] as? [[String: Any]])
        let kinds = Dictionary(uniqueKeysWithValues: changes.map { ($0["asset"] as! String, $0["kind"] as! String) })
        #expect(kinds["Added"] == "added" && kinds[diff.removed] == "removed")
        #expect(["grown", "shrunk", "changed"].contains(kinds[diff.changed] ?? ""))
        #expect(changes.count == 3, "\(kinds)")
        let markdown = try String(contentsOfFile: "\(workspace.root)/report/size-report.md", encoding: .utf8)
        #expect(markdown.contains("| `Added` | added |") && markdown.contains("| `\(diff.removed)` | removed |"))
        #expect(result.stdout == markdown)
        #expect(FileManager.default.fileExists(atPath: "\(workspace.root)/report/App Thinning Size Report.txt"))
    }

    @Test("a build over its budget writes everything, names each item over, and exits 3; tessera report does the same")
    func budgetsFailTheBuild() async throws {
        let workspace = try Workspace()
        try SizeReportBuilds.layOut(workspace, variant: 1)
        let outcome = try await SizeReportBuilds.build("\(workspace.input)/v1", into: "\(workspace.root)/out",
                                      report: "    max-install: 1KB\n    max-asset: 100MB\n")
        #expect(outcome.exitStatus == 3 && outcome.report.succeeded)
        let over = try #require(outcome.report.overBudget)
        #expect(!over.isEmpty && over.allSatisfy { $0.item == "install" && $0.limit == 1000 && $0.bytes > 1000 })
        #expect(Set(over.map(\.device)) == Set(try ManifestWriter.read(from: outcome.manifestPath).deviceClasses.map(\.id)))
        #expect(FileManager.default.fileExists(atPath: "\(workspace.root)/out/size-report.md"))
        let saved = try JSONDecoder().decode(BuildReport.self, from: Data(contentsOf: URL(fileURLWithPath: outcome.reportPath)))
        #expect(saved.overBudget == over)
        let summary = "\(workspace.root)/step-summary.md"
        let command = try await TesseraProcess.run(["report", "\(workspace.root)/out", "--max-asset", "1KB"],
                                             environment: ["GITHUB_STEP_SUMMARY": summary])
        // The CI job summary gets the Markdown, over-budget list included (the file is made if missing).
        let appended = try String(contentsOfFile: summary, encoding: .utf8)
        #expect(appended.hasPrefix("## Tessera size report") && appended.contains("**Over budget:**"))
        #expect(command.status == 3)
        #expect(command.stderr.contains("error: over budget: asset ") && command.stderr.contains(" on 5 device classes (iPhone18,2, ") && command.stderr.contains("): over max-asset 1 KB"),
                "\(command.stderr)")
        // Within budget: exit 0, and report.json says nothing is over.
        let within = try await SizeReportBuilds.build("\(workspace.input)/v1", into: "\(workspace.root)/ok", report: "    max-install: 1GB\n")
        #expect(within.exitStatus == 0 && within.report.overBudget == [])
    }

    @Test("a damaged previous manifest is an error naming it, exit 1")
    func damagedPreviousManifest() async throws {
        let workspace = try Workspace()
        try SizeReportBuilds.layOut(workspace, variant: 1)
        _ = try await SizeReportBuilds.build("\(workspace.input)/v1", into: "\(workspace.root)/out")
        try workspace.write(Array("{\"version\": 99".utf8), as: "old/manifest.json")
        let result = try await TesseraProcess.run(["report", "\(workspace.root)/out", "--against", "\(workspace.input)/old"])
        #expect(result.status == 1 && result.stderr.contains("\(workspace.input)/old/manifest.json"))
    }

    @Test("against a tessera serve channel: the same changes as against the folder; an unknown channel is an error naming it")
    func diffsAgainstAServeChannel() async throws {
        let workspace = try Workspace()
        let diff = try await SizeReportBuilds.twoBuilds(workspace)
        let server = try ServeProcess(folder: "\(workspace.root)/serve")
        defer { server.stop() }
        let published = try await ServeProcess.run(["publish", "\(workspace.root)/before", "--server", server.url,
                                              "--token-file", server.tokenFile, "--channel", "main"])
        #expect(published.status == 0, "\(published.stderr)")
        let local = try await TesseraProcess.run(["report", "\(workspace.root)/after", "--against", "\(workspace.root)/before",
                                            "--output", "\(workspace.root)/local"])
        let remote = try await TesseraProcess.run(["report", "\(workspace.root)/after", "--against", "\(server.url)/v1/channels/main",
                                             "--output", "\(workspace.root)/remote"])
        #expect(local.status == 0 && remote.status == 0, "\(remote.stderr)")
        func changes(_ folder: String) throws -> SizeChanges? {
            struct Document: Decodable { var report: SizeReport }
            return try JSONDecoder().decode(Document.self, from: Data(contentsOf: URL(fileURLWithPath: "\(folder)/size-report.json"))).report.changes
        }
        let fromServer = try #require(try changes("\(workspace.root)/remote"))
        #expect(fromServer == (try changes("\(workspace.root)/local")))
        #expect(Set(fromServer.assets.map(\.asset)) == [diff.changed, diff.added, diff.removed])
        let unknown = try await TesseraProcess.run(["report", "\(workspace.root)/after", "--against", "\(server.url)/v1/channels/nightly"])
        #expect(unknown.status == 1)
        #expect(unknown.stderr.contains("\(server.url)/v1/channels/nightly") && unknown.stderr.contains("HTTP 404"), "\(unknown.stderr)")
    }

    @Test("per-tag budgets sum each tag's packs per device; Play's totals apply to Android builds only")
    func tagAndStoreBudgets() {
        let packs = [PackSize(pack: "base", tags: [], category: .initialInstall, size: ByteTotals(bytes: 4_100_000_000, unpacked: 0)),
                     PackSize(pack: "a", tags: ["level1"], category: .onDemand, size: ByteTotals(bytes: 600, unpacked: 0)),
                     PackSize(pack: "b", tags: ["level1", "level2"], category: .prefetch, size: ByteTotals(bytes: 500, unpacked: 0))]
        let device = DeviceSizes(device: "phone", name: "Phone", install: ByteTotals(bytes: 4_100_000_000, unpacked: 0),
                                 onDemand: ByteTotals(bytes: 1_100, unpacked: 0), packs: packs, assets: [])
        let report = SizeReport(pipeline: "p", devices: [device])
        let budget = SizeBudget(maxTag: ["level1": 1_000, "level2": 500])
        let apple = budget.violations(in: report, android: false)
        #expect(apple.map(\.item) == ["tag level1"])
        #expect(apple.first?.bytes == 1_100 && apple.first?.limit == 1_000)
        let play = budget.violations(in: report, android: true)
        #expect(play.map(\.item) == ["pack base", "tag level1", "install-time packs"])
        #expect(play.map(\.budget) == ["Google Play's pack limit of 1.5 GB", "max-tag 1 KB", "Google Play's limit of 4.0 GB"])
    }

    @Test("the pipeline's report stage: against a previous build, per-tag budgets, and the page with the build's warnings")
    func reportStageComparesAndBudgetsTags() async throws {
        let workspace = try Workspace()
        let diff = try await SizeReportBuilds.twoBuilds(workspace)
        let outcome = try await SizeReportBuilds.build("\(workspace.input)/v2", into: "\(workspace.root)/staged",
                                                      report: "    against: \(workspace.root)/before\n    max-tag: [Green=1KB]\n")
        #expect(outcome.exitStatus == 3)
        let over = try #require(outcome.report.overBudget)
        // Every device gets the Green packs.
        #expect(!over.isEmpty && over.allSatisfy { $0.item == "tag Green" && $0.limit == 1_000 && $0.bytes > 1_000 })
        let markdown = try String(contentsOfFile: "\(workspace.root)/staged/size-report.md", encoding: .utf8)
        #expect(markdown.contains("| `\(diff.added)` | added |") && markdown.contains("| `\(diff.removed)` | removed |"))
        let page = try String(contentsOfFile: "\(workspace.root)/staged/\(SizeReportPage.fileName)", encoding: .utf8)
        #expect(page.contains("over max-tag 1 KB"))
        // The build's warnings (the sample's 2x-only sets) are in the page's data.
        let warning = try #require(outcome.report.warnings.first)
        #expect(page.contains(warning.reason))
    }

    @Test("a budget for a tag the build does not have is a usage error naming the build's tags (exit 2), in tessera report and in the pipeline's report stage")
    func unknownTagIsRefused() async throws {
        let workspace = try Workspace()
        try SizeReportBuilds.layOut(workspace, variant: 1)
        _ = try await SizeReportBuilds.build("\(workspace.input)/v1", into: "\(workspace.root)/out")
        let command = try await TesseraProcess.run(["report", "\(workspace.root)/out", "--max-tag", "Gren=1KB"])
        #expect(command.status == 2, "\(command.stderr)")
        #expect(command.stderr.contains("--max-tag names a tag no asset of this build has: Gren; its tags are Blue, Circle, Green"), "\(command.stderr)")
        #expect(command.stderr.contains("closest to 'Gren': Green"))
        let error = await #expect(throws: TesseraError.self) {
            _ = try await SizeReportBuilds.build("\(workspace.input)/v1", into: "\(workspace.root)/staged", report: "    max-tag: [Nowhere=1KB]\n")
        }
        #expect(error?.kind == .configuration && error?.reason.contains("report: max-tag names a tag no asset of this build has: Nowhere") == true)
    }

    @Test("growth budgets against the previous build: by size and by share, per install, pack and asset; shown in the Markdown and exit 3; none without --against (exit 2)")
    func growthBudgets() async throws {
        let workspace = try Workspace()
        _ = try await SizeReportBuilds.twoBuilds(workspace)
        let before = try ManifestWriter.read(from: "\(workspace.root)/before/manifest.json")
        let after = try ManifestWriter.read(from: "\(workspace.root)/after/manifest.json")
        let old = SizeReport.make(before), new = SizeReport.make(after, previous: before)
        // Every asset whose bytes on a device went up, and only those, is over a 1-byte budget.
        var expected: Set<String> = []
        for device in new.devices {
            let was = Dictionary(old.devices.first { $0.device == device.device }!.assets.map { ($0.asset, $0.bytes) }) { a, _ in a }
            for asset in device.assets where asset.bytes > (was[asset.asset] ?? 0) { expected.insert("\(device.device) \(asset.asset)") }
        }
        let grown = SizeBudget(maxAssetGrowth: .bytes(1)).growthViolations(in: new, previous: old)
        #expect(!expected.isEmpty && Set(grown.map { "\($0.device) \($0.item.dropFirst("asset ".count))" }) == expected,
                "\(grown.map(\.item))")
        #expect(grown.allSatisfy { $0.limit == 1 && $0.bytes > 1 && $0.budget == "max-asset-growth 1 B" && $0.before != nil })
        // The added asset is new: a share says nothing of it, a size does.
        #expect(!SizeBudget(maxAssetGrowth: .percent(1_000_000)).growthViolations(in: new, previous: old)
            .contains { $0.item.hasPrefix("asset Added") })
        #expect(SizeBudget(maxAssetGrowth: .bytes(1)).growthViolations(in: new, previous: old).contains { $0.item == "asset Added" && $0.before == 0 })
        // Generous limits pass.
        #expect(SizeBudget(maxInstallGrowth: .percent(1000), maxPackGrowth: .bytes(100_000_000), maxAssetGrowth: .percent(10_000))
            .growthViolations(in: new, previous: old).filter { $0.before != 0 }.isEmpty)

        let command = try await TesseraProcess.run(["report", "\(workspace.root)/after", "--against", "\(workspace.root)/before",
                                              "--max-asset-growth", "1B", "--max-install-growth", "0.001%", "--output", "\(workspace.root)/report"])
        #expect(command.status == 3, "\(command.stderr)")
        #expect(command.stderr.contains("error: over budget: ") && command.stderr.contains("asset Added is new at "), "\(command.stderr)")
        let markdown = try String(contentsOfFile: "\(workspace.root)/report/size-report.md", encoding: .utf8)
        #expect(markdown.contains("**Over budget:**") && markdown.contains("over max-asset-growth 1 B"), "\(markdown)")
        let alone = try await TesseraProcess.run(["report", "\(workspace.root)/after", "--max-pack-growth", "5%"])
        #expect(alone.status == 2 && alone.stderr.contains("need a previous build"), "\(alone.stderr)")
        #expect(GrowthLimit(parsing: "5%") == .percent(5) && GrowthLimit(parsing: "200KB") == .bytes(200_000)
            && GrowthLimit(parsing: "lots") == nil && GrowthLimit(parsing: "-3%") == nil)
        // A pipeline's report stage with growth limits and no `against` is refused as it is read.
        #expect(throws: TesseraError.self) {
            try PipelineFileReader.parse("version: 1\nname: g\nstages:\n  decode:\n  slice:\n    devices: [iPhone18,2]\n  pack:\n  report:\n    max-pack-growth: 5%\n  manifest:\n", file: "g.yml")
        }
    }
}
