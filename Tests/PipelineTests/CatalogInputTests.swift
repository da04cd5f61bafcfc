import Delivery
import Foundation
import Manifests
import Pipeline
import TestSupport
import Testing
import TesseraCore

/// `--input App/Assets.xcassets` is what a new user types: it must build what the catalog's
/// parent folder builds (issue 26, item 1), not a folder of files named the Xcode way.
@Suite("A catalog given as the input")
struct CatalogInputTests {
    private let parent = "\(Workspace.packageRoot)/Tests/Fixtures/corpus/xcassets/tutsplus-odr"

    private func build(_ input: String, into output: String) async throws -> BuildOutcome {
        let definition = try PipelineFileReader.read(path: "\(Workspace.packageRoot)/Pipelines/app-thinning.yml")
        return try await PipelineRunner.run(BuildRequest(definition: definition, inputFolder: input, outputFolder: output))
    }

    @Test("the .xcassets itself builds the same assets, tags, packs and files as its parent folder")
    func catalogInputMatchesParent() async throws {
        let workspace = try Workspace()
        let fromParent = try await build(parent, into: "\(workspace.root)/parent")
        let fromCatalog = try await build("\(parent)/Assets.xcassets/", into: "\(workspace.root)/catalog")
        #expect(fromParent.exitStatus == 0 && fromCatalog.exitStatus == 0)
        let expected = try ManifestWriter.read(from: fromParent.manifestPath)
        let got = try ManifestWriter.read(from: fromCatalog.manifestPath)
        #expect(!expected.packs.filter { !$0.tags.isEmpty }.isEmpty, "the fixture has on-demand tags")
        #expect(got.assets.map(\.name) == expected.assets.map(\.name))
        #expect(got.assets.map(\.tags) == expected.assets.map(\.tags))
        #expect(got.packs.map(\.tags) == expected.packs.map(\.tags))
        #expect(got.bundles.map(\.sha256) == expected.bundles.map(\.sha256))
        #expect(got.assets.flatMap(\.variants).map(\.sha256) == expected.assets.flatMap(\.variants).map(\.sha256))
        // Sources are named relative to the input given.
        #expect(got.assets.flatMap(\.variants).allSatisfy { !$0.source.hasPrefix("Assets.xcassets/") })
        #expect(fromCatalog.report.warnings.map(\.reason) == fromParent.report.warnings.map(\.reason))
    }
}
