import Foundation
import JobEngine
@testable import Pipeline
import TestSupport
import Testing
import TesseraCore

/// Every option reaches the cache keys of the jobs it changes: a key part forgotten in a stage
/// would let the cache serve a result made under the old value (issue 41).
@Suite("Options in cache keys")
struct OptionKeyTests {
    /// `base` (a pipeline's YAML) with each `name: value` set under `section`, replacing any line of that key.
    static func pipeline(_ section: String, _ settings: [(String, String)], base: String) throws -> String {
        var lines = base.components(separatedBy: "\n")
        let header = try #require(lines.firstIndex { $0.hasPrefix("  \(section):") })
        var end = header + 1
        while end < lines.count, lines[end].hasPrefix("    ") { end += 1 }
        let names = Set(settings.map(\.0))
        let kept = lines[(header + 1)..<end].filter { line in !names.contains { line.hasPrefix("    \($0):") } }
        lines.replaceSubrange((header + 1)..<end, with: kept + settings.map { "    \($0.0): \($0.1)" })
        return lines.joined(separator: "\n")
    }

    /// `Samples/` and what it lacks for some options to matter: an animated GIF, a lossy WebP
    /// master, an SVG and a PDF set, and a file named without `@Nx`.
    static func layOut(in workspace: Workspace) throws -> String {
        let input = "\(workspace.input)/app", fixtures = "\(Workspace.packageRoot)/Tests/Fixtures"
        let files = FileManager.default
        try files.copyItem(atPath: "\(Workspace.packageRoot)/Samples", toPath: input)
        try files.removeItem(atPath: "\(input)/ClientDemo")
        try files.createDirectory(atPath: "\(input)/Extra/Icons.xcassets", withIntermediateDirectories: true)
        try files.copyItem(atPath: "\(Workspace.corpus)/animated/pillow/duplicate_number_of_loops.gif", toPath: "\(input)/Extra/spinner@2x.gif")
        try files.copyItem(atPath: "\(Workspace.corpus)/still/pillow/webp/flower.webp", toPath: "\(input)/Extra/flower@3x.webp")
        try files.copyItem(atPath: "\(Workspace.corpus)/png/pngsuite/basn2c08.png", toPath: "\(input)/Extra/plain.png")
        try files.copyItem(atPath: "\(fixtures)/vectors/brand_logo.svg", toPath: "\(input)/Extra/logo.svg")
        try files.copyItem(atPath: "\(fixtures)/vectors/timelineStar.imageset", toPath: "\(input)/Extra/Icons.xcassets/timelineStar.imageset")
        return input
    }

    /// Each stage's set of cache keys in the plan of `Samples/` under `yaml`.
    static func keys(_ yaml: String, input: String, output: String) throws -> [JobKind: Set<ContentHash>] {
        let definition = try PipelineFileReader.parse(yaml, file: "samples.yml")
        let plan = try BuildPlanner(definition: definition, inputFolder: input, outputFolder: output).plan()
        var keys: [JobKind: Set<ContentHash>] = [:]
        for key in plan.graph.keys {
            guard let job = plan.graph.job(key), let caching = job.caching else { continue }
            keys[job.kind, default: []].insert(caching.cacheKey(for: job))
        }
        return keys
    }

    /// The stages whose jobs an option must re-key, at least one of them (the option changes what
    /// they make); an option absent here changes no file a job makes (a memory limit, a budget,
    /// what the manifests say), and must leave every job but the three aggregating ones (gather,
    /// slice, manifest, which key the whole rows and pack options they read) as it was, so the cache
    /// keeps them.
    static let reKeys: [String: Set<String>] = [
        "decode.max-pixels": ["copy", "write", "decompress"],
        "variants.scales": ["copy", "write"], "variants.unsuffixed-scale": ["copy", "write"],
        "rasterize.render-seconds": ["write"], "rasterize.max-file-size": ["write"],
        "downscale.filter": ["write"], "downscale.linear-light": ["write"],
        "encode.png-effort": ["write"], "encode.png-level": ["write"], "encode.png-palette": ["write"],
        "encode.png-palette-quality": ["write"], "encode.png-palette-speed": ["write"],
        "encode.jpeg-quality": ["write"], "encode.jpeg-progressive": ["write"], "encode.jpeg-chroma": ["write"],
        "encode.webp-quality": ["write"],
        "decompress.include": ["decompress"], "decompress.all": ["decompress"], "decompress.animated": ["decompress"],
        "decompress.pixel-format": ["decompress"], "decompress.max-bytes": ["decompress"],
        "timing.clamp": ["timing"], "timing.max-slots": ["timing"], "timing.sub-images": ["timing"],
        "slice.devices": ["slice", "bundle"],
        "pack.compress": ["bundle"], "pack.min-saving": ["bundle"], "pack.xz-level": ["bundle"],
        "pack.untagged": ["app", "bundle"],
    ]

    /// Settings an option only matters beside (a palette's quality needs the lossy palette), and
    /// values other than the table's where the table's is the effective default here.
    static let context: [String: [(String, String)]] = [
        "encode.png-palette-quality": [("png-palette", "lossy")], "encode.png-palette-speed": [("png-palette", "lossy")],
        "decompress.animated": [("include", "[\"**\"]")], "decompress.all": [("include", "[]"), ("all", "true")],
        "report.max-install-growth": [("against", "previous")], "report.max-pack-growth": [("against", "previous")],
        "report.max-asset-growth": [("against", "previous")], "report.max-update": [("against", "previous")],
    ]
    static let aggregating: Set<String> = ["gather", "slice", "manifest"]

    @Test("every option re-keys the jobs whose files it changes, and one that changes no job's file leaves every job's key as it was")
    func optionsReachTheKeys() throws {
        let workspace = try Workspace()
        let input = try Self.layOut(in: workspace), output = "\(workspace.root)/out"
        let shipped = try String(contentsOfFile: "\(Workspace.packageRoot)/Pipelines/samples.yml", encoding: .utf8)
        for (key, value) in OptionTableTests.nonDefault.sorted(by: { $0.key < $1.key }) {
            let parts = key.split(separator: ".", maxSplits: 1).map(String.init)
            var settings = Self.context[key] ?? []
            if !settings.contains(where: { $0.0 == parts[1] }) { settings.append((parts[1], value)) }
            let withContext = try Self.pipeline(parts[0], Array(settings.dropLast()), base: shipped)
            let changedYAML = try Self.pipeline(parts[0], [settings.last!], base: withContext)
            let before = try Self.keys(withContext, input: input, output: output)
            let after = try Self.keys(changedYAML, input: input, output: output)
            let changed = Set(Set(before.keys).union(after.keys).filter { before[$0] != after[$0] }.map(\.rawValue))
            if let expected = Self.reKeys[key] {
                #expect(!changed.isDisjoint(with: expected), "\(key): \(settings.last!.1) re-keyed \(changed.sorted()), none of \(expected.sorted())")
            } else {
                #expect(changed.isSubset(of: Self.aggregating), "\(key) changes no file, yet re-keyed \(changed.subtracting(Self.aggregating).sorted())")
            }
        }
    }

    @Test("a job waits for exactly what it reads: a compress job for the job that writes its file, not for the variant a shared vector or bitmap goes with")
    func compressWaitsForItsFileAlone() throws {
        let workspace = try Workspace()
        let input = try Self.layOut(in: workspace)
        // Every payload tried, so the vectors and bitmaps that go with a variant are compressed too.
        let yaml = try Self.pipeline("pack", [("compress", "always")],
                                     base: try String(contentsOfFile: "\(Workspace.packageRoot)/Pipelines/samples.yml", encoding: .utf8))
        let definition = try PipelineFileReader.parse(yaml, file: "samples.yml")
        let plan = try BuildPlanner(definition: definition, inputFolder: input, outputFolder: "\(workspace.root)/out").plan()
        let compressions = plan.graph.keys.compactMap(plan.graph.job).filter { $0.kind == .compress }
        #expect(compressions.count > 10)
        for job in compressions {
            #expect(job.dependencies.count == 1, "\(job.subject) waits for \(job.dependencies.count) jobs")
            let producer = try #require(job.dependencies.first.flatMap(plan.graph.job))
            // A file job's subject is the file it writes (a data job's, the file it copies).
            #expect(producer.subject == job.subject || producer.kind == .data, "\(job.subject) waits for \(producer.kind) \(producer.subject)")
        }
    }
}
