import Delivery
import Foundation
import JobEngine
import Manifests
import Pipeline
import Rasterizing
import TestServers
import TestSupport
import Testing
import TesseraCore

/// The committed `ThinningApp` fixture: two targets, a PDF, an SVG, a HEIC, a folder-level tag, a
/// right-to-left variant and a single-size 1024 icon with dark and tinted appearances.
@Suite("Real catalog builds")
struct RealCatalogBuildTests {
    private func build(_ output: String) async throws -> BuildOutcome {
        var definition = try PipelineFileReader.read(path: "\(Workspace.packageRoot)/Pipelines/app-thinning.yml")
        // Untagged sets in the base pack: these tests pin what packs hold.
        definition.pack?.untagged = .pack
        return try await PipelineRunner.run(BuildRequest(
            definition: definition, inputFolder: "\(Workspace.packageRoot)/Tests/Fixtures/catalogs/ThinningApp",
            outputFolder: output))
    }

    @Test("SVG is drawn at each scale, PDF too with its renderer (else carried), HEIC is carried byte for byte; tags and packs survive")
    func vectorsAreRenderedAndHEICCarried() async throws {
        let workspace = try Workspace()
        let output = "\(workspace.root)/out"
        let outcome = try await build(output)
        #expect(outcome.exitStatus == 0, "\(outcome.report.failures.map(\.message))")
        let manifest = try ManifestWriter.read(from: outcome.manifestPath)
        let byName = Dictionary(uniqueKeysWithValues: manifest.assets.map { ($0.name.name, $0) })
        let fixture = "\(Workspace.packageRoot)/Tests/Fixtures/catalogs/ThinningApp"
        var carried: [(String, ImageFormat, [String])] = [("App/Photo", .heic, [])]
        var rendered: [(String, [String])] = [("App/Levels/Badge", ["level1"])]
        if VectorDocument.rendersPDF { rendered.append(("App/Levels/Map", ["level1", "maps"])) }
        else { carried.append(("App/Levels/Map", .pdf, ["level1", "maps"])) }
        for (name, format, tags) in carried {
            let asset = try #require(byName[name], "\(name) vanished")
            let variant = try #require(asset.variants.first)
            #expect(variant.format == format && asset.tags == tags)
            #expect(try ContentHash.ofFile(at: "\(output)/\(variant.path)") == ContentHash.ofFile(at: "\(fixture)/\(variant.source)"))
        }
        // The single-scale HEIC is listed at 1x and marked as drawn at any scale, as its records say.
        #expect(byName["App/Photo"]?.variants.map { "\($0.scale) \($0.anyScale == true)" } == ["1x true"])
        for (name, tags) in rendered {
            let asset = try #require(byName[name], "\(name) vanished")
            #expect(asset.variants.map { "\($0.scale) \($0.format) \($0.generated) \($0.anyScale == nil)" }
                    == ["1x png true true", "2x png true true", "3x png true true"])
            #expect(asset.tags == tags)
        }
        #expect(Set(manifest.packs.flatMap(\.tags)) == ["level1", "maps"])
        let phone = manifest.bundles.filter { $0.device == "iPhone18,2" }
        let entries = phone.flatMap(\.entries)
        // Map preserves its vectors: the PDF ships whether or not it was also drawn.
        #expect(entries.contains("assets/App/Levels/Map.pdf") && entries.contains("assets/App/Levels/Badge@3x.png"))
        #expect(!entries.contains("assets/App/Levels/Badge.svg") && !entries.contains("assets/App/Levels/Badge@2x.png"))
        #expect(entries.contains("assets/App/Photo.heic"))
        // Both directions ship (the app picks at run time); entries keep their trait suffixes.
        #expect(entries.contains { $0.hasPrefix("assets/App/Arrow~ltr") } && entries.contains { $0.hasPrefix("assets/App/Arrow~rtl") })
        // The app icon stays in the app: no bundle holds it, app/ has the set Xcode compiles.
        #expect(!entries.contains { $0.contains("AppIcon") })
        #expect(manifest.app?.contains { $0.path == "app/App/Assets.xcassets/AppIcon.appiconset/Contents.json" } == true)
        #expect(manifest.app?.contains { $0.path == "app/App/Assets.xcassets/Contents.json" } == true)
        let answer = try BundleQuery.answer(manifest, device: "iPhone18,2", tags: ["maps"])
        #expect(answer.bundles.contains { $0.tags == ["level1", "maps"] })
    }

    @Test("template rendering and preserved vectors reach the manifest, the slice rows and the bundle records `bundle ls` prints")
    func presentationIsCarried() async throws {
        let workspace = try Workspace()
        let output = "\(workspace.root)/out"
        let outcome = try await build(output)
        #expect(outcome.exitStatus == 0)
        let manifest = try ManifestWriter.read(from: outcome.manifestPath)
        let map = try #require(manifest.assets.first { $0.name.name == "App/Levels/Map" })
        #expect(map.renderingIntent == "template" && map.preservesVectorRepresentation == true)
        let badge = try #require(manifest.assets.first { $0.name.name == "App/Levels/Badge" })
        #expect(badge.renderingIntent == nil && badge.preservesVectorRepresentation == nil)
        let schema = try #require(try JSONSerialization.jsonObject(
            with: Data(contentsOf: URL(fileURLWithPath: "\(Workspace.packageRoot)/docs/manifest.schema.json"))) as? [String: Any])
        var problems: [String] = []
        SchemaChecker(root: schema).check(try JSONSerialization.jsonObject(with: Data(contentsOf: URL(fileURLWithPath: outcome.manifestPath))),
                                          against: schema, at: "$", problems: &problems)
        #expect(problems.isEmpty, "\(problems)")
        let slice = try String(contentsOfFile: "\(output)/slices/iPhone18,2.json", encoding: .utf8)
        #expect(slice.contains("\"renderingIntent\" : \"template\""))

        let bundle = try #require(manifest.bundles.first { $0.device == "iPhone18,2" && $0.entries.contains("assets/App/Levels/Map.pdf") })
        let list = try await TesseraProcess.run(["bundle", "ls", "\(output)/\(bundle.path)"])
        #expect(list.status == 0)
        let mapLine = try #require(list.stdout.split(separator: "\n").first { $0.hasPrefix("assets/App/Levels/Map.pdf\t") })
        #expect(mapLine.split(separator: "\t").last
                == "appearance=any;idiom=universal;preserves-vector=true;rendering-intent=template;scale=any")
        // The SVG is drawn at the phone's scale, and its record says so.
        let badgeBundle = try #require(manifest.bundles.first { $0.device == "iPhone18,2" && $0.entries.contains("assets/App/Levels/Badge@3x.png") })
        let badgeList = try await TesseraProcess.run(["bundle", "ls", "\(output)/\(badgeBundle.path)"]).stdout
        let badgeLine = try #require(badgeList.split(separator: "\n").first { $0.hasPrefix("assets/App/Levels/Badge@3x.png\t") })
        #expect(badgeLine.split(separator: "\t").last == "appearance=any;idiom=universal;scale=3x")
    }
}
