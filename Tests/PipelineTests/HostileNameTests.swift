import Delivery
import Foundation
import Manifests
import Pipeline
import TestServers
import TestSupport
import Testing

/// Names every reader of a build must take as they are (issue 54, items 10 and 13).
@Suite("Hostile file names")
struct HostileNameTests {
    private static let pipeline = """
        version: 1
        name: names
        stages:
          decode:
          slice:
            devices: ["iPhone15,2"]
          pack:
          manifest:
        """

    private static func build(_ input: String, into output: String) async throws -> BuildOutcome {
        try await PipelineRunner.run(BuildRequest(definition: try PipelineFileReader.parse(pipeline, file: "names.yml"),
                                                  inputFolder: input, outputFolder: output))
    }

    @Test("a file name with a backslash fails its asset, named, and the manifest every reader accepts lists the rest")
    func backslashIsRefusedFirst() async throws {
        let workspace = try Workspace()
        try workspace.add("png/pngsuite/basn2c08.png", as: "icons/good@2x.png")
        try workspace.add("png/pngsuite/basn2c08.png", as: "icons/back\\slash@2x.png")
        let outcome = try await Self.build(workspace.input, into: "\(workspace.root)/out")
        #expect(outcome.exitStatus == 1)
        #expect(outcome.report.failures.contains { $0.file.hasSuffix("icons/back\\slash@2x.png") && $0.reason.contains("backslash") },
                "\(outcome.report.failures.map(\.message))")
        // The manifest is one `Manifest.decode` (what query, the server and the client read) accepts.
        let manifest = try Manifest.decode(try Data(contentsOf: URL(fileURLWithPath: outcome.manifestPath)), source: "manifest.json")
        #expect(manifest.assets.map(\.name.name) == ["icons/good"])
    }

    @Test("a file name holding a newline, a | and backticks stays in its row of size-report.md: it writes no heading or row of its own")
    func namesStayInTheirRow() async throws {
        let workspace = try Workspace()
        try workspace.add("png/pngsuite/basn2c08.png", as: "icons/good@2x.png")
        _ = try await Self.build(workspace.input, into: "\(workspace.root)/before")
        let evil = "evil\n## Size check passed\n| x | `y` <b>"
        try workspace.add("png/pngsuite/basn6a08.png", as: "icons/\(evil)@2x.png")
        let after = try await Self.build(workspace.input, into: "\(workspace.root)/after")
        #expect(after.exitStatus == 0, "\(after.report.failures.map(\.message))")
        let run = try await TesseraProcess.run(["report", "\(workspace.root)/after", "--against", "\(workspace.root)/before",
                                          "--max-asset-growth", "1B", "--output", "\(workspace.root)/report"])
        #expect(run.status == 3, "\(run.stderr)")
        let markdown = try String(contentsOfFile: "\(workspace.root)/report/size-report.md", encoding: .utf8)
        let lines = markdown.split(separator: "\n", omittingEmptySubsequences: false)
        #expect(!lines.contains { $0.hasPrefix("## Size check passed") || $0.hasPrefix("| x |") }, "\(markdown)")
        let row = try #require(lines.first { $0.contains("evil") && $0.hasPrefix("| ") }, "\(markdown)")
        #expect(row.contains("evil\\u{a}## Size check passed\\u{a}\\| x \\| `y` <b>"), "\(row)")
        // Five cells: six unescaped bars.
        #expect(row.filter { $0 == "|" }.count - (row.components(separatedBy: "\\|").count - 1) == 6, "\(row)")
        // In the budget lines too, the name is one line with no HTML of its own.
        let budget = try #require(lines.first { $0.hasPrefix("- ") && $0.contains("evil") }, "\(markdown)")
        #expect(budget.contains("&lt;b&gt;") && !budget.contains("<b>"), "\(budget)")
    }
}
