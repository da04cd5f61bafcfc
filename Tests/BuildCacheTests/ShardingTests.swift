import BuildCache
import Foundation
import JobEngine
import Pipeline
import Testing
import TestServers
import TesseraCore

@Suite("Sharded builds and merge")
struct ShardingTests {
    private func shardRun(_ workspace: CacheWorkspace, _ shard: Shard) async throws -> String {
        let definition = try PipelineFileReader.read(path: "\(CacheWorkspace.packageRoot)/Pipelines/app-thinning.yml")
        let cache = try workspace.openCache()
        let request = BuildRequest(definition: definition, inputFolder: workspace.input,
                                   outputFolder: "\(workspace.root)/shard-\(shard.index)-of-\(shard.count)",
                                   cache: cache, fileHashing: cache,
                                   mode: .shard(shard, pipelineFile: "\(CacheWorkspace.packageRoot)/Pipelines/app-thinning.yml"))
        let outcome = try await PipelineRunner.run(request)
        #expect(outcome.exitStatus == 0)
        return "\(request.outputFolder)/\(PartialManifest.fileName(shard))"
    }

    private func layOut(_ workspace: CacheWorkspace) throws {
        try workspace.layOutSample()
        try workspace.add("png/pngsuite/basn2c16.png", as: "icons/deep@3x.png")
        try workspace.add("still/pillow/jpeg/hopper_gray.jpg", as: "photos/gray@2x.jpg")
        try workspace.add("png/pngsuite/basn0g08.png", as: "icons/gray@3x.png")
    }

    @Test("1 shard and 4 shards run one after another and merged give the bytes of an unsharded build")
    func shardsMergeToTheSameBytes() async throws {
        let reference: [String: Data]
        do {
            let workspace = try CacheWorkspace()
            try layOut(workspace)
            _ = try await workspace.build(into: "\(workspace.root)/plain", cache: nil)
            reference = workspace.outputs("\(workspace.root)/plain")
        }
        for count in [1, 4] {
            let workspace = try CacheWorkspace()
            try layOut(workspace)
            var partials: [String] = []
            var owned: Set<ContentHash> = []
            for index in 1...count {
                let path = try await shardRun(workspace, try Shard(index: index, count: count))
                let partial = try PartialManifest.read(path)
                #expect(owned.isDisjoint(with: partial.units))
                owned.formUnion(partial.units)
                partials.append(path)
            }
            // The units are spread: with four shards, more than one does some work.
            let busy = try partials.filter { !(try PartialManifest.read($0).units.isEmpty) }.count
            #expect(count == 1 ? busy == 1 : busy > 1)
            let output = "\(workspace.root)/merged"
            let merged = try await MergeRunner.merge(partials: partials, outputFolder: output,
                                                     cache: try workspace.openCache())
            #expect(merged.exitStatus == 0)
            let counts = try #require(merged.report.cache)
            for stage in [JobKind.write, .copy, .timing] { #expect(counts[stage]?.misses == 0, "\(stage) rebuilt in the merge") }
            for stage in [JobKind.decode, .downscale, .encode, .animate] { #expect(merged.report.stages[stage] == nil) }
            let files = workspace.outputs(output)
            #expect(files.keys.filter { $0.hasSuffix(".tsb") || $0.hasSuffix(".json") || $0.hasSuffix(".plist") }.count > 3)
            #expect(files == reference, "N = \(count)")
        }
    }

    @Test("merge refuses a missing shard, a shard given twice, and shards of another build")
    func mergeChecksCoverage() async throws {
        let workspace = try CacheWorkspace()
        try layOut(workspace)
        var partials: [String] = []
        for index in 1...3 { partials.append(try await shardRun(workspace, try Shard(index: index, count: 3))) }
        let cache = try workspace.openCache()
        let output = "\(workspace.root)/merged"

        await #expect { try await MergeRunner.merge(partials: Array(partials.prefix(2)), outputFolder: output, cache: cache) }
            throws: { ($0 as? TesseraError)?.reason.contains("shard 3/3 missing") == true }
        await #expect { try await MergeRunner.merge(partials: partials + [partials[0]], outputFolder: output, cache: cache) }
            throws: { ($0 as? TesseraError)?.reason.contains("given twice") == true }
        // A unit claimed by two shards.
        let original = try #require(FileManager.default.contents(atPath: partials[1]))
        var doubled = try PartialManifest.read(partials[1])
        doubled.units += try PartialManifest.read(partials[0]).units
        try Data(try StableJSON.encode(doubled)).write(to: URL(fileURLWithPath: partials[1]))
        await #expect { try await MergeRunner.merge(partials: partials, outputFolder: output, cache: cache) }
            throws: { ($0 as? TesseraError)?.reason.contains("is also in") == true }
        // The sources changed after the shards ran.
        try original.write(to: URL(fileURLWithPath: partials[1]))
        try workspace.add("still/pillow/jpeg/hopper.jpg", as: "photos/gray@2x.jpg")
        await #expect { try await MergeRunner.merge(partials: partials, outputFolder: output, cache: cache) }
            throws: { ($0 as? TesseraError)?.reason.contains("differ from those the shards built") == true }
        #expect(!FileManager.default.fileExists(atPath: "\(output)/manifest.json"))
    }

    @Test("--shard auto reads Buildkite's, GitLab's and CircleCI's parallel-job variables; none set is an error naming them")
    func shardFromCI() async throws {
        #expect(try Shard(environment: ["BUILDKITE_PARALLEL_JOB": "0", "BUILDKITE_PARALLEL_JOB_COUNT": "4"]) == Shard(index: 1, count: 4))
        #expect(try Shard(environment: ["CI_NODE_INDEX": "3", "CI_NODE_TOTAL": "3"]) == Shard(index: 3, count: 3))
        #expect(try Shard(environment: ["CIRCLE_NODE_INDEX": "1", "CIRCLE_NODE_TOTAL": "2"]) == Shard(index: 2, count: 2))
        #expect(throws: TesseraError.self) { try Shard(environment: ["CI_NODE_INDEX": "0", "CI_NODE_TOTAL": "3"]) }
        do throws(TesseraError) {
            _ = try Shard(environment: ["PATH": "/usr/bin"])
            Issue.record("no variables gave a shard")
        } catch {
            #expect(error.reason.contains("BUILDKITE_PARALLEL_JOB") && error.reason.contains("CI_NODE_INDEX")
                    && error.reason.contains("CIRCLE_NODE_INDEX"))
        }
        let cli = try await TesseraProcess.run(["run", "\(ServeProcess.packageRoot)/Pipelines/samples.yml", "--input", "\(ServeProcess.packageRoot)/Samples",
                                          "--output", FileManager.default.temporaryDirectory.appendingPathComponent("shard-\(UUID())").path,
                                          "--shard", "auto"], environment: ["BUILDKITE_PARALLEL_JOB": "", "CI_NODE_INDEX": "x", "CI_NODE_TOTAL": "2"])
        #expect(cli.status != 0 && cli.stderr.contains("CI_NODE_INDEX=x"), "\(cli.stderr)")
    }
}
