import BuildCache
import Crypto
import Foundation
import JobEngine
import Pipeline
import Testing
import TesseraCore

@Suite("Incremental builds through the local cache")
struct IncrementalBuildTests {
    @Test("cold, warm and no-op builds through the cache write the same bytes as a build without it")
    func cachedOutputsAreIdentical() async throws {
        let workspace = try CacheWorkspace()
        try workspace.layOutSample()
        try workspace.ageSources()
        let plain = try await workspace.build(into: "\(workspace.root)/plain", cache: nil)
        #expect(plain.exitStatus == 0)
        #expect(plain.report.cache == nil)
        let reference = workspace.outputs("\(workspace.root)/plain")
        #expect(reference.keys.contains("manifest.json") && reference.keys.contains { $0.hasSuffix(".tsb") }
                && reference.keys.contains { $0.hasPrefix("app/") })

        let cold = try await workspace.build(into: "\(workspace.root)/cold", cache: try workspace.openCache())
        let coldCounts = try #require(cold.report.cache)
        #expect(coldCounts.totalHits == 0 && coldCounts.totalMisses > 0)
        #expect(workspace.outputs("\(workspace.root)/cold") == reference)

        // A new output folder: every file is restored from the cache, nothing upstream runs.
        let events = FinishedJobs()
        let warm = try await workspace.build(into: "\(workspace.root)/warm", cache: try workspace.openCache(), observer: events)
        let warmCounts = try #require(warm.report.cache)
        #expect(warm.exitStatus == 0)
        // Keys name files relative to the output folder, so the gathering stages hit too.
        for stage in [JobKind.write, .copy, .timing, .bundle, .app, .gather, .slice, .manifest] {
            #expect(warmCounts[stage]?.misses == 0, "\(stage) missed")
            #expect((warmCounts[stage]?.hits ?? 0) > 0, "\(stage) had no hit")
        }
        // Generated stills are encoded in their downscale pass: no encode job is left to avoid.
        #expect((warmCounts[.decode]?.avoided ?? 0) > 0 && (warmCounts[.downscale]?.avoided ?? 0) > 0)
        #expect(warmCounts[.encode] == nil)
        for stage in [JobKind.decode, .downscale, .encode, .animate] { #expect(warm.report.stages[stage] == nil, "\(stage) ran") }
        #expect(workspace.outputs("\(workspace.root)/warm") == reference)
        #expect(warm.manifest == plain.manifest)
        // Every job the progress hears of came from the cache; nothing was decoded.
        #expect(events.all.allSatisfy { $0.fromCache } && !events.all.contains { $0.kind == .decode })

        // The same output folder again: a no-op, every job a hit, and no source or output read again.
        let noOpCache = try workspace.openCache()
        let noOp = try await workspace.build(into: "\(workspace.root)/warm", cache: noOpCache)
        #expect(noOp.report.cache?.totalMisses == 0)
        #expect(noOpCache.fingerprints.filesRead == 0)
        #expect(workspace.outputs("\(workspace.root)/warm") == reference)
    }

    @Test("a source's decode warning is reported again by a rebuild where every job is a hit")
    func decodeWarningsSurviveHits() async throws {
        let workspace = try CacheWorkspace()
        try workspace.layOutSample()
        // A tEXt chunk with a wrong CRC before IEND: decoded with a warning, not refused.
        let original = try Array(Data(contentsOf: URL(fileURLWithPath: "\(CacheWorkspace.corpus)/png/pngsuite/basn2c08.png")))
        let text = Array("tEXtComment\u{0}damaged".utf8)
        let length = UInt32(text.count - 4)
        let chunk = withUnsafeBytes(of: length.bigEndian) { Array($0) } + text + [0xDE, 0xAD, 0xBE, 0xEF]
        let end = original.count - 12
        try Data(Array(original[..<end]) + chunk + Array(original[end...]))
            .write(to: URL(fileURLWithPath: "\(workspace.input)/icons/damaged@3x.png"))
        let output = "\(workspace.root)/out"
        func decodeWarnings(_ outcome: BuildOutcome) -> [String] {
            outcome.report.warnings.filter { $0.stage == .decode }.map { "\($0.file): \($0.reason)" }
        }
        let cold = try await workspace.build(into: output, cache: try workspace.openCache())
        #expect(decodeWarnings(cold) == ["\(workspace.input)/icons/damaged@3x.png: tEXt: CRC error"])
        let noOp = try await workspace.build(into: output, cache: try workspace.openCache())
        #expect(noOp.report.cache?.totalMisses == 0)
        #expect(decodeWarnings(noOp) == decodeWarnings(cold))
        #expect(noOp.manifest == cold.manifest)
    }

    @Test("a changed master rebuilds only its own variants and the bundles and manifests that hold them")
    func changedMasterRebuildsItsAsset() async throws {
        let workspace = try CacheWorkspace()
        try workspace.layOutSample()
        let output = "\(workspace.root)/out"
        _ = try await workspace.build(into: output, cache: try workspace.openCache())
        try workspace.add("still/pillow/jpeg/hopper_gray.jpg", as: "photos/hopper@3x.jpg")

        let rebuilt = try await workspace.build(into: output, cache: try workspace.openCache())
        let counts = try #require(rebuilt.report.cache)
        // hopper: 1x and 2x generated, 3x copied, all rebuilt; alpha's and the animation's files are hits,
        // and the decodes, downscale (which encodes alpha's 1x in its pass) and animation behind them
        // never run (alpha@2x's and the animation's decodes; the 3x masters are validated by their
        // downscales, not decoded apart).
        #expect(counts[.write]?.misses == 2 && counts[.write]?.hits == 2)
        #expect(counts[.copy]?.misses == 1 && counts[.copy]?.hits == 3)
        #expect(counts[.timing]?.hits == 1)
        #expect(counts[.decode]?.avoided == 2)
        #expect(counts[.downscale]?.avoided == 1 && counts[.encode] == nil && counts[.animate]?.avoided == 1)
        let plain = try await workspace.build(into: "\(workspace.root)/plain", cache: nil)
        #expect(workspace.outputs(output) == workspace.outputs("\(workspace.root)/plain"))
        #expect(rebuilt.manifest == plain.manifest)
    }

    @Test("a deleted output file is restored even when nothing else changed")
    func deletedOutputIsRestored() async throws {
        let workspace = try CacheWorkspace()
        try workspace.layOutSample()
        let output = "\(workspace.root)/out"
        _ = try await workspace.build(into: output, cache: try workspace.openCache())
        let before = workspace.outputs(output)
        try FileManager.default.removeItem(atPath: "\(output)/variants/icons/alpha.png")
        let again = try await workspace.build(into: output, cache: try workspace.openCache())
        #expect(again.report.cache?.totalMisses == 0)
        #expect(workspace.outputs(output) == before)
    }

    @Test("every blob a build stores is named by the SHA-256 of its bytes, those linked by the hash their job computed too")
    func storedBlobsMatchTheirNames() async throws {
        let workspace = try CacheWorkspace()
        try workspace.layOutSample()
        let output = "\(workspace.root)/out"
        _ = try await workspace.build(into: output, cache: try workspace.openCache())
        let blobs = workspace.cacheFiles("cas")
        // Every output (variants, bitmaps, bundles, manifests) is in the store under its own hash;
        // what the after-build step derives from the manifest alone (docs/updates.md) is made again.
        let names = Set(blobs.map { URL(fileURLWithPath: $0).lastPathComponent })
        for (path, bytes) in workspace.outputs(output) where !["manifest.json.xz", "updates.json"].contains(path) {
            #expect(names.contains(ContentHash.of(bytes).hex), "\(path) is not in the store")
        }
        for blob in blobs {
            #expect(try ContentHash.ofFile(at: blob).hex == URL(fileURLWithPath: blob).lastPathComponent)
        }
    }

    @Test("a rebuild after one source changed hashes only that file again; an unchanged colour set is a hit")
    func changedRebuildReadsOnlyTheChange() async throws {
        let workspace = try CacheWorkspace()
        try workspace.layOutSample()
        let set = "xcassets/food-truck/Widgets/Assets.xcassets/LightIndigo.colorset/Contents.json"
        try workspace.add(set, as: "Colors.xcassets/LightIndigo.colorset/Contents.json")
        try workspace.add("xcassets/food-truck/Widgets/Assets.xcassets/Contents.json", as: "Colors.xcassets/Contents.json")
        try workspace.ageSources()
        let output = "\(workspace.root)/out"
        let cold = try await workspace.build(into: output, cache: try workspace.openCache())
        #expect(cold.report.cache?[.data]?.misses == 1)

        try workspace.add("still/pillow/jpeg/hopper_gray.jpg", as: "photos/hopper@3x.jpg")
        // Only the changed file is dated back (touching the others would change their ctime).
        try FileManager.default.setAttributes([.modificationDate: Date(timeIntervalSinceNow: -30)],
                                              ofItemAtPath: "\(workspace.input)/photos/hopper@3x.jpg")
        let cache = try workspace.openCache()
        let changed = try await workspace.build(into: output, cache: cache)
        #expect(changed.report.cache?[.data]?.hits == 1)
        #expect(cache.fingerprints.filesRead == 1)
    }
}
