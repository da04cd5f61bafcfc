import Decoding
import Foundation
import JobEngine
import Manifests
import Pipeline
import TestSupport
import Testing
import TesseraCore

@Suite("Building a folder")
struct BuildTests {
    private func build(_ workspace: Workspace, output: String, scheduler: SchedulerOptions = SchedulerOptions())
        async throws -> BuildOutcome {
        let definition = try PipelineFileReader.read(path: "\(Workspace.packageRoot)/Pipelines/samples.yml")
        return try await PipelineRunner.run(BuildRequest(definition: definition, inputFolder: workspace.input,
                                                         outputFolder: output, scheduler: scheduler))
    }

    @Test("a broken image fails alone: every other variant is built, listed and verifiable, and the exit status is 1")
    func brokenImageIsIsolated() async throws {
        let workspace = try Workspace()
        try layOutMixedInput(in: workspace)
        let output = "\(workspace.root)/out"
        let outcome = try await build(workspace, output: output)

        #expect(outcome.exitStatus == 1)
        #expect(outcome.report.failures.count == 1)
        let failure = try #require(outcome.report.failures.first)
        #expect(failure.file == "\(workspace.input)/broken/cut@3x.png")
        #expect(failure.stage == .decode)
        #expect(failure.reason.hasPrefix("PNG: "))

        let manifest = try #require(outcome.manifest)
        #expect(manifest.assets.map(\.name.name) == ["icons/alpha", "photos/hopper"])
        let alpha = manifest.assets[0].variants
        #expect(alpha.map(\.scale) == [.x1, .x2, .x3])
        #expect(alpha.map(\.generated) == [true, false, false])
        #expect(alpha.map(\.width) == [11, 32, 32])  // 1x from the 32-px 3x master; 2x as provided
        #expect(alpha.map(\.path) == ["variants/icons/alpha.png", "variants/icons/alpha@2x.png",
                                       "variants/icons/alpha@3x.png"])
        let hopper = manifest.assets[1].variants
        #expect(hopper.map(\.width) == [43, 85, 128])
        #expect(hopper.map(\.format) == [.jpeg, .jpeg, .jpeg])

        // Every listed file is on disk with the listed size and hash, and decodes to the listed size.
        for variant in alpha + hopper {
            let bytes = try SourceBytes(contentsOfFile: "\(output)/\(variant.path)")
            #expect(bytes.count == variant.bytes)
            #expect(bytes.contentHash == variant.sha256)
            let image = try ImageDecoders.decode(bytes)
            #expect(image.bitmap.width == variant.width && image.bitmap.height == variant.height)
        }
        // Provided scales are copied byte for byte.
        let provided = try SourceBytes(contentsOfFile: "\(workspace.input)/icons/alpha@2x.png")
        #expect(provided.contentHash == alpha[1].sha256)
        // Nothing was written for the broken asset, and no temporary file was left anywhere.
        let written = workspace.files(under: output).keys.sorted()
        #expect(!written.contains { $0.contains("broken") || $0.contains(AtomicFile.temporaryPrefix) })
        #expect(written.contains("manifest.json") && written.contains("report.json"))

        let report = try JSONDecoder().decode(BuildReport.self,
                                              from: Data(contentsOf: URL(fileURLWithPath: outcome.reportPath)))
        #expect(report == outcome.report)
        #expect(report.variantsWritten == 6)
    }

    @Test("the same input gives byte-identical outputs with one worker or two, in any job order")
    func reproducible() async throws {
        let workspace = try Workspace()
        try layOutMixedInput(in: workspace)
        var reference: [String: Data]?
        let schedules: [SchedulerOptions] = [
            SchedulerOptions(maxConcurrentJobs: 1),
            SchedulerOptions(maxConcurrentJobs: 2, tieBreak: .shuffled(seed: 11)),
            SchedulerOptions(maxConcurrentJobs: 2, memoryBudget: 200_000, tieBreak: .shuffled(seed: 99)),
        ]
        for (index, schedule) in schedules.enumerated() {
            let output = "\(workspace.root)/out\(index)"
            _ = try await build(workspace, output: output, scheduler: schedule)
            let files = try workspace.reproducibleFiles(under: output)
            if let reference {
                #expect(files == reference, "schedule \(index) differs")
            } else {
                reference = files
            }
        }
        // 6 variants, manifest.json, report.json, and for each of the 5 device classes a slice
        // file; the untagged sets stay in the app (pack.untagged: app), so no bundle: their 3
        // sources under app/ (plain-folder files go as they are); the size report's four files
        // (its page, thumbnails included, byte-identical too); the folder's list of what the
        // build put there (.tessera-outputs); and what devices update by: the manifest
        // compressed and updates.json (no objects without bundles).
        #expect(reference?.count == 23)
        #expect(reference?["manifest.json.xz"] != nil && reference?["updates.json"] != nil)
        #expect(reference?[".tessera-outputs"] != nil)
        #expect(reference?["size-report.html"] != nil)
        #expect(reference?.keys.filter { $0.hasPrefix("bundles/") }.isEmpty == true)
        #expect(reference?.keys.filter { $0.hasPrefix("app/") }.sorted()
                == ["app/icons/alpha@2x.png", "app/icons/alpha@3x.png", "app/photos/hopper@3x.jpg"])
    }

    @Test("a .png that holds WebP is copied as it is and listed as WebP; variants made from it are real PNGs")
    func contentDecidesTheListedFormat() async throws {
        let workspace = try Workspace()
        try workspace.add("still/pillow/webp/flower.webp", as: "flower@2x.png")
        let outcome = try await build(workspace, output: "\(workspace.root)/out")
        let variants = try #require(outcome.manifest?.assets.first?.variants)
        let provided = try #require(variants.first { $0.scale == .x2 })
        let generated = try #require(variants.first { $0.scale == .x1 })
        #expect(provided.format == .webp && !provided.generated)
        #expect(generated.format == .png && generated.generated)
        let bytes = try #require(FileManager.default.contents(atPath: "\(workspace.root)/out/\(generated.path)"))
        #expect(Array(bytes.prefix(4)) == [0x89, 0x50, 0x4E, 0x47])
    }

    @Test("an empty input folder builds an empty manifest and succeeds")
    func emptyInput() async throws {
        let workspace = try Workspace()
        try FileManager.default.createDirectory(atPath: workspace.input, withIntermediateDirectories: true)
        let outcome = try await build(workspace, output: "\(workspace.root)/out")
        #expect(outcome.exitStatus == 0)
        #expect(outcome.manifest?.assets.isEmpty == true)
    }

    @Test("a missing input folder is a clear error before anything runs")
    func missingInput() async throws {
        let workspace = try Workspace()
        do {
            _ = try await build(workspace, output: "\(workspace.root)/out")
            Issue.record("built from a missing folder")
        } catch {
            #expect(String(describing: error) == "\(workspace.input): the input folder does not exist or is not a folder")
        }
    }
}
