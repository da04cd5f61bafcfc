import Foundation
import Pipeline
import TestSupport

/// Builds of the ODR sample catalog (real tutsplus-odr assets: tagged packs and an install pack)
/// with the shipped app-thinning pipeline, for the size report's tests.
enum SizeReportBuilds {
    static func build(_ input: String, into output: String, report: String = "") async throws -> BuildOutcome {
        var text = try String(contentsOfFile: "\(Workspace.packageRoot)/Pipelines/app-thinning.yml", encoding: .utf8)
        if !report.isEmpty { text += "  report:\n" + report }
        let definition = try PipelineFileReader.parse(text, file: "app-thinning.yml")
        return try await PipelineRunner.run(BuildRequest(definition: definition, inputFolder: input, outputFolder: output))
    }

    /// Copies the sample catalog to `input/v<variant>/ODR.xcassets`.
    static func layOut(_ workspace: Workspace, variant: Int) throws {
        let source = "\(Workspace.packageRoot)/Samples/ODR.xcassets"
        let target = "\(workspace.input)/v\(variant)/ODR.xcassets"
        try FileManager.default.createDirectory(atPath: "\(workspace.input)/v\(variant)", withIntermediateDirectories: true)
        try FileManager.default.copyItem(atPath: source, toPath: target)
    }

    /// The assets a two-build diff changes.
    struct Diff {
        var changed: String
        var removed: String
        var added: String
    }

    /// Lays out `v1` (the catalog) and `v2` (one asset's 2x replaced by a larger real PNG, one
    /// asset removed, one added), builds both into `before` and `after`.
    static func twoBuilds(_ workspace: Workspace) async throws -> Diff {
        try layOut(workspace, variant: 1)
        try layOut(workspace, variant: 2)
        let catalog = "\(workspace.input)/v2/ODR.xcassets"
        let sets = try FileManager.default.contentsOfDirectory(atPath: catalog).filter { $0.hasSuffix(".imageset") }.sorted()
        let changed = sets[0], removed = sets[1]
        let changedFiles = try FileManager.default.contentsOfDirectory(atPath: "\(catalog)/\(changed)").filter { $0.hasSuffix(".png") }.sorted()
        try FileManager.default.removeItem(atPath: "\(catalog)/\(changed)/\(changedFiles.last!)")
        try FileManager.default.copyItem(atPath: "\(Workspace.corpus)/png/pngsuite/basn6a16.png",
                                         toPath: "\(catalog)/\(changed)/\(changedFiles.last!)")
        try FileManager.default.removeItem(atPath: "\(catalog)/\(removed)")
        try FileManager.default.createDirectory(atPath: "\(catalog)/Added.imageset", withIntermediateDirectories: true)
        try FileManager.default.copyItem(atPath: "\(Workspace.corpus)/png/pngsuite/basn2c08.png", toPath: "\(catalog)/Added.imageset/a.png")
        try Data(#"{"images":[{"filename":"a.png","idiom":"universal","scale":"2x"}],"info":{"author":"xcode","version":1}}"#.utf8)
            .write(to: URL(fileURLWithPath: "\(catalog)/Added.imageset/Contents.json"))
        _ = try await build("\(workspace.input)/v1", into: "\(workspace.root)/before")
        _ = try await build("\(workspace.input)/v2", into: "\(workspace.root)/after")
        let stem = { (set: String) in String(set.dropLast(".imageset".count)) }
        return Diff(changed: stem(changed), removed: stem(removed), added: "Added")
    }
}
