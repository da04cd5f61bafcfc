import Decoding
import Foundation
import Manifests
import Pipeline
import TestSupport
import Testing
import TesseraCore

@Suite("Validating provided masters")
struct MasterValidationTests {
    private func build(_ workspace: Workspace, output: String) async throws -> BuildOutcome {
        let definition = try PipelineFileReader.read(path: "\(Workspace.packageRoot)/Pipelines/app-thinning.yml")
        return try await PipelineRunner.run(BuildRequest(definition: definition, inputFolder: workspace.input,
                                                         outputFolder: output))
    }

    @Test("a 3x master its 2x and 1x are made from is decoded once: the copy is validated by the downscale pass")
    func masterDecodedOnce() async throws {
        let workspace = try Workspace()
        try workspace.add("png/pngsuite/basn6a08.png", as: "alpha@3x.png")         // 32×32 RGBA
        try workspace.add("still/pillow/jpeg/hopper.jpg", as: "hopper@3x.jpg")     // 128×128
        let output = "\(workspace.root)/out"
        let outcome = try await build(workspace, output: output)

        #expect(outcome.exitStatus == 0)
        // One downscale per master and no decode job at all.
        #expect(outcome.report.stages[.decode] == nil)
        #expect(outcome.report.stages[.downscale]?.jobs == 2)
        #expect(outcome.report.stages[.copy]?.jobs == 2)
        let manifest = try #require(outcome.manifest)
        let copies = manifest.assets.flatMap(\.variants).filter { !$0.generated }
        #expect(copies.map(\.path) == ["variants/alpha@3x.png", "variants/hopper@3x.jpg"])
        #expect(copies.map(\.format) == [.png, .jpeg])
        #expect(copies.map(\.width) == [32, 128] && copies.map(\.height) == [32, 128])
        for copy in copies {
            let source = try SourceBytes(contentsOfFile: "\(workspace.input)/\(copy.source)")
            #expect(source.contentHash == copy.sha256)
            #expect(try SourceBytes(contentsOfFile: "\(output)/\(copy.path)").contentHash == copy.sha256)
        }
    }

    @Test("a broken 3x master with generated scales is reported once and nothing of it is copied")
    func brokenMasterIsNotCopied() async throws {
        let workspace = try Workspace()
        try workspace.add("still/pillow/broken/truncated_image.png", as: "cut@3x.png")
        try workspace.add("still/pillow/jpeg/hopper.jpg", as: "hopper@3x.jpg")
        let output = "\(workspace.root)/out"
        let outcome = try await build(workspace, output: output)

        #expect(outcome.exitStatus == 1)
        #expect(outcome.report.failures.count == 1)
        let failure = try #require(outcome.report.failures.first)
        #expect(failure.file == "\(workspace.input)/cut@3x.png")
        #expect(failure.reason.hasPrefix("PNG: "))
        #expect(try #require(outcome.manifest).assets.map(\.name.name) == ["hopper"])
        #expect(!workspace.files(under: output).keys.contains { $0.contains("cut") })
    }
}
