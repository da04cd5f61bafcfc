import ArgumentParser
import BuildOptions
import Delivery
import Foundation
import Manifests
import SizeReporting
import TesseraCore

/// `tessera report BUILD [--against PREVIOUS]`: what each device class downloads of a build, per
/// pack and asset, what changed against a previous build, and whether it fits its budgets.
struct ReportCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "report",
        abstract: "Write a build's size report: per device class and pack, the biggest assets, changes against a previous build, budgets.",
        discussion: """
        BUILD is a build's output folder (or its manifest.json). Writes "App Thinning Size Report.txt" \
        (Xcode's layout), size-report.md (also appended to $GITHUB_STEP_SUMMARY when set) and \
        size-report.json into --output (default: BUILD's folder), and prints the Markdown. Exits 3 \
        when a budget is exceeded, 1 when a manifest cannot be read (docs/size-report.md).
        """)

    @Argument(help: "A build's output folder, or its manifest.json.")
    var build: String

    @Option(help: "A previous build's output folder or manifest.json to compare with.")
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

    func run() throws {
        let violations: [BudgetViolation]
        do {
            let manifestPath = Self.manifestPath(build)
            let manifest = try ManifestWriter.read(from: manifestPath)
            let previous = try against.map { path throws(TesseraError) in try ManifestWriter.read(from: Self.manifestPath(path)) }
            let report = SizeReport.make(manifest, previous: previous)
            let budget = SizeBudget(maxInstall: maxInstall, maxPack: maxPack, maxTotal: maxTotal, maxAsset: maxAsset)
            violations = budget.violations(in: report, of: manifest)
            let folder = output ?? (manifestPath as NSString).deletingLastPathComponent
            try SizeReportFiles.write(report, violations: violations, to: folder.isEmpty ? "." : folder,
                                      stepSummary: ProcessInfo.processInfo.environment["GITHUB_STEP_SUMMARY"])
            print(SizeReportMarkdown.render(report, violations: violations), terminator: "")
        } catch {
            throw fail(error)
        }
        for violation in violations { printError("error: over budget: \(violation.message)") }
        if !violations.isEmpty { throw ExitCode(3) }
    }

    /// A folder means its manifest.json.
    static func manifestPath(_ path: String) -> String {
        var isFolder: ObjCBool = false
        return FileManager.default.fileExists(atPath: path, isDirectory: &isFolder) && isFolder.boolValue
            ? "\(path)/manifest.json" : path
    }
}

private typealias Report = OptionTable.Report
