import Foundation
import SizeReporting
import TesseraCore
import Delivery

/// The after-build step of a pipeline with a `report` stage: the size report beside the manifest
/// (its summary appended to `$GITHUB_STEP_SUMMARY` when set), and what went over a budget.
enum SizeReportStep {
    /// What went over budget; nil for a pipeline without a report stage.
    static func run(_ request: BuildRequest, manifest: Manifest, problems: [BuildProblem]) throws(TesseraError) -> [BudgetViolation]? {
        guard let options = request.definition.report else { return nil }
        let previous = try options.against.map { location throws(TesseraError) in try ReportedBuildLoader.load(location) }
        try options.budget.check(against: manifest, hasPrevious: previous != nil, option: "report: max-tag")
        var report = SizeReport.make(manifest, previous: previous?.manifest)
        // The manifest's bytes as written and the update files beside it (`UpdateFilesStep` runs
        // first), read only for an update cost: without a previous build there is none.
        let manifestPath = "\(request.outputFolder)/\(request.definition.manifest.file)"
        let current = ReportedBuild(manifest: manifest, folder: request.outputFolder,
                                    reference: previous == nil ? nil
                                        : FileManager.default.contents(atPath: manifestPath).map { ManifestReference(of: [UInt8]($0)) },
                                    updateIndex: previous == nil ? nil : ReportedBuildLoader.updateIndex(in: request.outputFolder))
        report.update = previous.flatMap { UpdateCosts.make(current: current, previous: $0) }
        let violations = options.budget.violations(in: report, of: manifest, previous: previous.map { SizeReport.make($0.manifest) })
        let thumbnails = VariantThumbnails()
        let insights = options.insights ? SizeInsights.make(report, manifest: manifest, folder: request.outputFolder,
                                                            measurer: ImageSavingsMeasurer(jpegQuality: request.definition.encode.jpeg.quality)) : nil
        try PreviousPictures.picturing(previous, report: report, side: thumbnails.side) { (previous) throws(TesseraError) in
            let page = SizeReportFiles.PageInputs(problems: problems.map(\.reportProblem),
                                                  current: current,
                                                  previous: previous, thumbnails: thumbnails)
            try SizeReportFiles.write(report, violations: violations, page: page, insights: insights, to: request.outputFolder,
                                      stepSummary: ProcessInfo.processInfo.environment["GITHUB_STEP_SUMMARY"])
        }
        return violations
    }
}
