import Delivery
import Foundation
import JobEngine
import Manifests
import Packing
import Pipeline
import TestSupport
import Testing
import TesseraCore

@Suite("Packs and queries")
struct PackingTests {
    @Test("pack IDs come from the sorted tag set; priorities follow the prefetch order")
    func planner() {
        let planner = PackPlanner(initialInstallTags: ["tutorial"], prefetchOrder: ["level1", "level2", "level3"])
        #expect(PackPlanner.packID(for: []) == "base")
        #expect(PackPlanner.packID(for: ["b", "a"]) == PackPlanner.packID(for: ["a", "b"]))
        #expect(PackPlanner.packID(for: ["a", "b"]) == "pack-" + String(ContentHash.of(Array("a\nb".utf8)).hex.prefix(16)))
        #expect(planner.tagPriority("tutorial") == 1.0)
        #expect(planner.tagPriority("level1") == 0.95)
        #expect(abs((planner.tagPriority("level2") ?? 0) - 0.5) < 1e-12)
        #expect(planner.tagPriority("level3") == 0.05)
        #expect(PackPlanner(prefetchOrder: ["only"]).tagPriority("only") == 0.5)
        #expect(planner.pack(for: []).category == .initialInstall)
        #expect(planner.pack(for: ["tutorial"]).category == .initialInstall)
        let mixed = planner.pack(for: ["level3", "bonus", "level1"])
        #expect(mixed.category == .prefetch && mixed.priority == 0.95 && mixed.tags == ["bonus", "level1", "level3"])
        let onDemand = planner.pack(for: ["bonus"])
        #expect(onDemand.category == .onDemand && onDemand.priority == nil)
    }

    private func build(output: String, scheduler: SchedulerOptions) async throws -> BuildOutcome {
        var definition = try PipelineFileReader.read(path: "\(Workspace.packageRoot)/Pipelines/samples.yml")
        // Untagged sets in the base pack: these tests pin what packs hold.
        definition.pack?.untagged = .pack
        return try await PipelineRunner.run(BuildRequest(definition: definition,
                                                         inputFolder: "\(Workspace.corpus)/xcassets/tutsplus-odr",
                                                         outputFolder: output, scheduler: scheduler))
    }

    @Test("bundles and every manifest are byte-identical across runs, with --jobs 1 and --jobs 2")
    func reproducible() async throws {
        let workspace = try Workspace()
        _ = try await build(output: "\(workspace.root)/a", scheduler: SchedulerOptions(maxConcurrentJobs: 1))
        let outcome = try await build(output: "\(workspace.root)/b",
                                      scheduler: SchedulerOptions(maxConcurrentJobs: 2, tieBreak: .shuffled(seed: 5)))
        #expect(outcome.exitStatus == 0)
        let a = try workspace.reproducibleFiles(under: "\(workspace.root)/a")
        let b = try workspace.reproducibleFiles(under: "\(workspace.root)/b")
        #expect(a == b)
        // Managed asset packs: one manifest per pack and device group, the index and the device filter.
        #expect(a.keys.contains("apple/asset-packs.json") && a.keys.contains("apple/TesseraAssetPacks.swift"))
        #expect(a.keys.contains("apple/asset-packs/base.ipad-iphone-2x-3x.json") && a.keys.contains("apple/asset-packs/base.iphone-1x.json"))
        // 9 tag sets + base for 5 devices, but device classes that select the same files share one bundle.
        let manifest = try ManifestWriter.read(from: outcome.manifestPath)
        #expect(manifest.bundles.count == 10 * 5)
        let distinct = Set(manifest.bundles.map(\.path))
        #expect(a.keys.filter { $0.hasPrefix("bundles/") }.sorted() == distinct.sorted())
        #expect(distinct.count < manifest.bundles.count)
    }

    @Test("query: initial-install, then prefetch by priority, then the requested tags; installed tags skipped")
    func query() async throws {
        let workspace = try Workspace()
        let outcome = try await build(output: "\(workspace.root)/out", scheduler: SchedulerOptions())
        let manifest = try ManifestWriter.read(from: outcome.manifestPath)
        let answer = try BundleQuery.answer(manifest, device: "iPad12,1", tags: ["Green"])
        #expect(answer.bundles.first?.pack == "base")
        let categories = answer.bundles.map(\.category)
        #expect(categories == categories.sorted { [PackCategory.initialInstall, .prefetch, .onDemand].firstIndex(of: $0)!
            < [PackCategory.initialInstall, .prefetch, .onDemand].firstIndex(of: $1)! })
        #expect(answer.bundles.filter { $0.category == .prefetch }.first?.tags.contains("Blue") == true)
        #expect(answer.bundles.filter { $0.category == .onDemand }.allSatisfy { $0.tags.contains("Green") })
        let paths = Dictionary(manifest.bundles.filter { $0.device == "iPad12,1" }.map { ($0.pack, $0.url) },
                               uniquingKeysWith: { a, _ in a })
        #expect(answer.bundles.allSatisfy { $0.url.hasPrefix("https://cdn.example.com/app/bundles/\($0.pack)/")
            && $0.url.hasSuffix(".tsb") && paths[$0.pack] == $0.url })
        let skipping = try BundleQuery.answer(manifest, device: "iPad12,1", tags: ["Green"], installed: ["Blue"])
        #expect(!skipping.bundles.contains { $0.tags.contains("Blue") })
        do {
            _ = try BundleQuery.answer(manifest, device: "iPad12,1", tags: ["Gren"])
            Issue.record("accepted an unknown tag")
        } catch {
            #expect(error.reason.hasPrefix("unknown tag 'Gren'; known: Green"))
        }
        do {
            _ = try BundleQuery.answer(manifest, device: "iPad12,2", tags: [])
            Issue.record("accepted an unknown device")
        } catch {
            #expect(error.reason.hasPrefix("no bundles for device 'iPad12,2'; known: iPad12,1"))
        }
    }
}
