import ArgumentParser
import BuildOptions
import Delivery
import Foundation
import Manifests
import Pipeline
import SizeReporting
import TesseraCore

/// `tessera report BUILD [--against PREVIOUS]`: what each device class downloads of a build, per
/// pack and asset, what changed against a previous build, and whether it fits its budgets.
struct ReportCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "report",
        abstract: "Write a build's size report: per device class and pack, the biggest assets, changes against a previous build, budgets.",
        discussion: """
        BUILD is a build's output folder (or its manifest.json). Writes size-report.html (one \
        self-contained page), "App Thinning Size Report.txt" (Xcode's layout), size-report.md (also \
        appended to $GITHUB_STEP_SUMMARY when set) and size-report.json into --output (default: \
        BUILD's folder), and prints the Markdown. Exits 3 \
        when a budget is exceeded, 1 when a manifest cannot be read (docs/size-report.md).
        """)

    @Argument(help: "A build's output folder, or its manifest.json.")
    var build: String

    @Option(name: Report.against.long, help: Report.against.argumentHelp, transform: Report.against.unwrapped())
    var against: String?

    @Option(help: "Where to write the report files (default: the build's folder).")
    var output: String?

    @Option(name: Report.maxInstall.long, help: Report.maxInstall.argumentHelp, transform: Report.maxInstall.unwrapped())
    var maxInstall: Int?

    @Option(name: Report.maxPack.long, help: Report.maxPack.argumentHelp, transform: Report.maxPack.unwrapped())
    var maxPack: Int?

    @Option(name: Report.maxTotal.long, help: Report.maxTotal.argumentHelp, transform: Report.maxTotal.unwrapped())
    var maxTotal: Int?

    @Option(name: Report.maxAsset.long, help: Report.maxAsset.argumentHelp, transform: Report.maxAsset.unwrapped())
    var maxAsset: Int?

    @Option(name: Report.maxTag.long, help: Report.maxTag.argumentHelp, transform: Report.maxTag.argument)
    var maxTag: [String: Int] = [:]

    @Option(name: Report.maxInstallGrowth.long, help: Report.maxInstallGrowth.argumentHelp,
            transform: Report.maxInstallGrowth.unwrapped())
    var maxInstallGrowth: GrowthLimit?

    @Option(name: Report.maxPackGrowth.long, help: Report.maxPackGrowth.argumentHelp, transform: Report.maxPackGrowth.unwrapped())
    var maxPackGrowth: GrowthLimit?

    @Option(name: Report.maxAssetGrowth.long, help: Report.maxAssetGrowth.argumentHelp,
            transform: Report.maxAssetGrowth.unwrapped())
    var maxAssetGrowth: GrowthLimit?

    @Option(name: Report.maxUpdate.long, help: Report.maxUpdate.argumentHelp, transform: Report.maxUpdate.unwrapped())
    var maxUpdate: Int?

    @Flag(name: Report.insights.long, inversion: .prefixedNo, help: ArgumentHelp(Report.insights.help))
    var insights = Report.insights.defaultValue

    /// The report stage's options as a pipeline's `report:` with the same values would make them.
    var section: ReportStageOptions {
        var section = ReportStageOptions()
        section.set(Report.maxInstall, maxInstall)
        section.set(Report.maxPack, maxPack)
        section.set(Report.maxTotal, maxTotal)
        section.set(Report.maxAsset, maxAsset)
        section.set(Report.maxTag, maxTag)
        section.set(Report.maxInstallGrowth, maxInstallGrowth)
        section.set(Report.maxPackGrowth, maxPackGrowth)
        section.set(Report.maxAssetGrowth, maxAssetGrowth)
        section.set(Report.maxUpdate, maxUpdate)
        section.set(Report.against, against)
        section.set(Report.insights, insights)
        return section
    }

    func run() throws {
        let violations: [BudgetViolation]
        do {
            let current = try ReportedBuildLoader.load(build)
            let previous = try against.map { location throws(TesseraError) in try ReportedBuildLoader.load(location) }
            var report = SizeReport.make(current.manifest, previous: previous?.manifest)
            report.update = previous.flatMap { UpdateCosts.make(current: current, previous: $0) }
            let budget = section.budget
            try budget.check(against: current.manifest, hasPrevious: previous != nil)
            violations = budget.violations(in: report, of: current.manifest,
                                           previous: previous.map { SizeReport.make($0.manifest) })
            let folder = output ?? current.folder ?? "."
            // The build's own warnings and failures, from the report.json a run wrote beside it.
            let problems = current.folder.flatMap { BuildReport.read(from: "\($0)/report.json") }
                .map { ($0.failures + $0.warnings).map(\.reportProblem) }
            let thumbnails = VariantThumbnails()
            let insights = self.insights ? SizeInsights.make(report, manifest: current.manifest, folder: current.folder,
                                                        measurer: ImageSavingsMeasurer()) : nil
            // Against a server, the page's before pictures are fetched by ranges of its bundles.
            try PreviousPictures.picturing(previous, report: report, side: thumbnails.side,
                                           warn: { printError("warning: \($0)") }) { (previous) throws(TesseraError) in
                let page = SizeReportFiles.PageInputs(problems: problems, current: current, previous: previous, thumbnails: thumbnails)
                try SizeReportFiles.write(report, violations: violations, page: page, insights: insights, to: folder,
                                          stepSummary: ProcessInfo.processInfo.environment["GITHUB_STEP_SUMMARY"])
            }
            print(SizeReportMarkdown.render(report, violations: violations, insights: insights), terminator: "")
        } catch {
            throw fail(error)
        }
        for failure in BudgetFailure.group(violations) { printError("error: over budget: \(failure.message)") }
        if !violations.isEmpty { throw ExitCode(3) }
    }
}

private typealias Report = OptionTable.Report
