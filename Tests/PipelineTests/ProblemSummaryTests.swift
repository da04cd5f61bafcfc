import Pipeline
@testable import tessera
import Testing
import TesseraCore

/// Warnings of one kind are one line with a count, even when each names its asset (issue 53, item 10).
@Suite("Warnings grouped by kind")
struct ProblemSummaryTests {
    @Test("333 'in no target' warnings, each naming its asset, are one line with the count and the first files; --verbose lists each")
    func namedWarningsGroup() {
        let warnings = (0..<333).map { index in
            BuildProblem(severity: .warning, file: "in/Kit.xcassets/S\(index).imageset/s.png", stage: ProblemOrigin.slice,
                         reason: "asset 'Kit/S\(index)' is in no target and the slice stage names no device: no device gets it")
        } + [BuildProblem(severity: .warning, file: "in/a.png", stage: ProblemOrigin.plan,
                          reason: "no 3x variant: the largest source is 2x and Tessera does not upscale")]
        let lines = ProblemSummary.lines(warnings: warnings, failures: [], verbose: false)
        #expect(lines == [
            "warning: slice: asset '…' is in no target and the slice stage names no device: no device gets it — 333 files: in/Kit.xcassets/S0.imageset/s.png, in/Kit.xcassets/S1.imageset/s.png, in/Kit.xcassets/S2.imageset/s.png, … (--verbose lists all)",
            "warning: \(warnings.last!.message)",
        ])
        #expect(ProblemSummary.lines(warnings: warnings, failures: [], verbose: true).count == 334)
        // An apostrophe that opens no quotation leaves the reason as it is.
        #expect(ProblemSummary.kind(of: "over Google Play's pack limit") == "over Google Play's pack limit")
    }
}
