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
    @Test("per device: install and on-demand bytes are the bundles' sums, and each asset's share is its files in them")
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
            #expect(device.install.bytes == bundles.filter { packs[$0.pack] == .initialInstall }.reduce(0) { $0 + $1.bytes })
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
        let result = try TesseraProcess.run(["report", "\(workspace.root)/after", "--against", "\(workspace.root)/before",
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
        let command = try TesseraProcess.run(["report", "\(workspace.root)/out", "--max-asset", "1KB"],
                                             environment: ["GITHUB_STEP_SUMMARY": summary])
        // The CI job summary gets the Markdown, over-budget list included (the file is made if missing).
        let appended = try String(contentsOfFile: summary, encoding: .utf8)
        #expect(appended.hasPrefix("## Tessera size report") && appended.contains("**Over budget:**"))
        #expect(command.status == 3)
        #expect(command.stderr.contains("error: over budget: iPhone18,2: asset "))
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
        let result = try TesseraProcess.run(["report", "\(workspace.root)/out", "--against", "\(workspace.input)/old"])
        #expect(result.status == 1 && result.stderr.contains("\(workspace.input)/old/manifest.json"))
    }
}
