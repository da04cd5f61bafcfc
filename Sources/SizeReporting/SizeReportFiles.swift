import Foundation
import TesseraCore

/// Writes a size report's files into a folder, each whole or not at all: `size-report.html`,
/// `App Thinning Size Report.txt`, `size-report.md` and `size-report.json` (the model, for scripts).
public enum SizeReportFiles {
    public static let text = "App Thinning Size Report.txt"
    public static let markdown = "size-report.md"
    public static let json = "size-report.json"

    /// What the HTML page shows besides the report: the build's warnings and failures (nil when
    /// unknown), the builds whose variants it pictures, and what makes the pictures (nil: none).
    public struct PageInputs: Sendable {
        public var problems: [ReportProblem]?
        public var current: ReportedBuild
        public var previous: ReportedBuild?
        public var thumbnails: (any ThumbnailMaking)?

        public init(problems: [ReportProblem]?, current: ReportedBuild, previous: ReportedBuild?,
                    thumbnails: (any ThumbnailMaking)?) {
            self.problems = problems
            self.current = current
            self.previous = previous
            self.thumbnails = thumbnails
        }
    }

    /// The files written: the page, the text, the Markdown and the JSON. `stepSummary`: a file to
    /// append the Markdown to (CI's `$GITHUB_STEP_SUMMARY`); nil for none.
    @discardableResult
    public static func write(_ report: SizeReport, violations: [BudgetViolation], page: PageInputs, insights: SizeInsights? = nil,
                             to folder: String, stepSummary: String? = nil) throws(TesseraError) -> [String] {
        let markdownText = SizeReportMarkdown.render(report, violations: violations, insights: insights)
        let paths = ["\(folder)/\(SizeReportPage.fileName)", "\(folder)/\(text)", "\(folder)/\(markdown)", "\(folder)/\(json)"]
        let html = SizeReportPage.render(report, violations: violations, problems: page.problems, current: page.current,
                                         previous: page.previous, thumbnails: page.thumbnails, insights: insights)
        try AtomicFile.write(Array(html.utf8), to: paths[0])
        try AtomicFile.write(Array(ThinningSizeReportText.render(report).utf8), to: paths[1])
        try AtomicFile.write(Array(markdownText.utf8), to: paths[2])
        try AtomicFile.write(try StableJSON.encode(SizeReportDocument(report: report, overBudget: violations, insights: insights)), to: paths[3])
        if let stepSummary, !stepSummary.isEmpty {
            // Appended, as GitHub Actions expects: several steps share the one summary file.
            if !FileManager.default.fileExists(atPath: stepSummary) {
                _ = FileManager.default.createFile(atPath: stepSummary, contents: nil)
            }
            guard let handle = FileHandle(forWritingAtPath: stepSummary) else {
                throw TesseraError(.io, file: stepSummary, origin: .report, reason: "cannot append the size report to the step summary")
            }
            defer { try? handle.close() }
            _ = try? handle.seekToEnd()
            handle.write(Data(markdownText.utf8))
        }
        return paths
    }
}

/// `size-report.json`: the report, what went over budget, and the insights (absent without).
struct SizeReportDocument: Codable {
    let report: SizeReport
    let overBudget: [BudgetViolation]
    let insights: SizeInsights?
}
