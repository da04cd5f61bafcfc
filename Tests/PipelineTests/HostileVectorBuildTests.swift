import Foundation
import TestServers
import TestSupport
import Testing

/// Issue 54's vector target, in builds as users run them: one PDF forging its worker's answers,
/// one SVG that makes librsvg panic and one whose filter would render for a day, among 20
/// innocent vectors (five real, fifteen generated), drawn by the separate-process renderers.
@Suite("Hostile vectors among innocent ones in a build")
struct HostileVectorBuildTests {
    private static let vectors = "\(Workspace.packageRoot)/Tests/Fixtures/vectors"
    private static let hostile = ["forger.pdf", "panic.svg", "endless.svg"]

    /// The 20 innocent sets, and the hostile ones when `withHostile`, in `folder`'s catalog.
    private func layOut(_ workspace: Workspace, folder: String, withHostile: Bool) throws {
        func set(_ file: String, _ bytes: [UInt8]) throws {
            let name = (file as NSString).deletingPathExtension
            try workspace.write(bytes, as: "\(folder)/App/Assets.xcassets/\(name).imageset/\(file)")
            try workspace.write(Array(#"{"images":[{"idiom":"universal","filename":"\#(file)"}],"info":{"author":"xcode","version":1}}"#.utf8),
                                as: "\(folder)/App/Assets.xcassets/\(name).imageset/Contents.json")
        }
        try workspace.write(Array(#"{"info":{"author":"xcode","version":1}}"#.utf8), as: "\(folder)/App/Assets.xcassets/Contents.json")
        for file in ["brand_logo.svg", "checkmark.seal.fill.svg", "gear.pdf", "mastodon_logo.pdf", "photo.fill.split.pdf"] {
            try set(file, Array(try Data(contentsOf: URL(fileURLWithPath: "\(Self.vectors)/\(file)"))))
        }
        for index in 0..<8 {
            let colour = "\(Double(index) / 8) 0.5 \(1 - Double(index) / 8) rg 2 2 \(10 + index) 12 re f"
            try set("page\(index).pdf", HandMadePDF.page(box: "0 0 \(20 + index) \(30 + index)", content: colour).bytes())
        }
        for index in 0..<7 {
            let fill = "rgb(\(30 * index),\(200 - 20 * index),90)"
            try set("shape\(index).svg", Array(("<svg xmlns='http://www.w3.org/2000/svg' width='\(16 + index)' height='24'>"
                + "<circle cx='8' cy='12' r='\(3 + index)' fill='\(fill)'/></svg>").utf8))
        }
        guard withHostile else { return }
        try set("forger.pdf", HostileVectors.forgingPDF())
        try set("panic.svg", Array(HostileVectors.panickingSVG.utf8))
        try set("endless.svg", Array(HostileVectors.endlessSVG().utf8))
    }

    /// Every variant's bytes under `output`/variants.
    private func variants(_ output: String) -> [String: Data] { Workspace.files(under: "\(output)/variants") }

    @Test("the innocent vectors render right in each of 20 builds, the hostile ones fail alone within their time limit, and the cache holds no wrong render")
    func hostileVectorsFailAlone() async throws {
        let workspace = try Workspace()
        try layOut(workspace, folder: "innocent", withHostile: false)
        try layOut(workspace, folder: "mixed", withHostile: true)
        let template = try String(contentsOfFile: "\(Workspace.packageRoot)/Pipelines/app-thinning.yml", encoding: .utf8)
        let pipeline = "\(workspace.root)/pipeline.yml"
        try template.replacingOccurrences(of: "render-seconds: 10", with: "render-seconds: 1").write(toFile: pipeline, atomically: true, encoding: .utf8)
        let environment = ["TESSERA_PDF_RENDERER": "process"]
        func run(_ input: String, _ output: String, cache: [String]) async throws -> TesseraProcess.Result {
            try await TesseraProcess.run(["run", pipeline, "--input", "\(workspace.input)/\(input)", "--output", "\(workspace.root)/\(output)"] + cache,
                                   environment: environment)
        }
        let reference = try await run("innocent", "reference", cache: ["--no-cache"])
        #expect(reference.status == 0, "\(reference.stderr)")
        let expected = variants("\(workspace.root)/reference")
        #expect(expected.count == 60, "\(expected.keys.sorted())")

        let cache = "\(workspace.root)/cache"
        for round in 0..<20 {
            // The last round fills a cache, which a build of the innocent sets alone then reads.
            let start = ContinuousClock.now
            let mixed = try await run("mixed", "mixed\(round)", cache: round == 19 ? ["--cache", cache] : ["--no-cache"])
            let elapsed = ContinuousClock.now - start
            #expect(mixed.status == 1, "round \(round): \(mixed.stderr)")
            let built = variants("\(workspace.root)/mixed\(round)")
            #expect(built == expected, "round \(round): innocent variants differ: \(Set(built.keys).symmetricDifference(expected.keys).sorted())")
            let report = try JSONSerialization.jsonObject(with: Data(contentsOf: URL(fileURLWithPath: "\(workspace.root)/mixed\(round)/report.json"))) as? [String: Any]
            let failures = (report?["failures"] as? [[String: Any]] ?? []).map { ("\($0["file"] ?? "")" as NSString).lastPathComponent + ": \($0["reason"] ?? "")" }
            #expect(Set(failures.map { String($0.prefix { $0 != ":" }) }) == Set(Self.hostile), "round \(round): \(failures)")
            #expect(failures.contains { $0.hasPrefix("forger.pdf") && ($0.contains("not this file's") || $0.contains("cannot find XObject")) }, "\(failures)")
            #expect(failures.contains { $0.hasPrefix("panic.svg") && $0.contains("librsvg crashed") }, "\(failures)")
            #expect(failures.contains { $0.hasPrefix("endless.svg") && $0.contains("over its time limit") }, "\(failures)")
            // One time limit (1 s, two scales at once on two cores, the third refused at once), not hours.
            #expect(elapsed < .seconds(120), "round \(round) took \(elapsed)")
        }
        let fromCache = try await run("innocent", "from-cache", cache: ["--cache", cache])
        #expect(fromCache.status == 0, "\(fromCache.stderr)")
        #expect(variants("\(workspace.root)/from-cache") == expected)
    }
}
