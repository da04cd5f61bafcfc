import Delivery
import Foundation
import Manifests
import Pipeline
import TestServers
import TestSupport
import Testing
import TesseraCore

/// Apple's managed asset packs from real builds (issue 29): one manifest per pack in Apple's
/// format, files on disk under the staging root, IDs valid for one app record, the generated
/// device filter, `ba-package` when present, and the On-Demand Resources plists only on request.
@Suite("Managed asset packs")
struct ManagedAssetPackTests {
    /// The samples with their untagged sets in a base pack (`untagged: pack`): the essential
    /// pack these tests pin is that mode's.
    private func buildSamples(into output: String, pack more: String = "") async throws -> BuildOutcome {
        var text = try String(contentsOfFile: "\(Workspace.packageRoot)/Pipelines/samples.yml", encoding: .utf8)
            .replacingOccurrences(of: "    untagged: app ", with: "    untagged: pack ")
        let extra = more
        if !extra.isEmpty, let line = text.range(of: "\n  pack:"), let end = text[line.upperBound...].firstIndex(of: "\n") {
            text.insert(contentsOf: "\n" + extra.dropLast(), at: end)
        }
        let definition = try PipelineFileReader.parse(text, file: "samples.yml")
        return try await PipelineRunner.run(BuildRequest(definition: definition, inputFolder: "\(Workspace.packageRoot)/Samples",
                                                         outputFolder: output))
    }

    private func json(_ path: String) throws -> Any {
        try JSONSerialization.jsonObject(with: Data(contentsOf: URL(fileURLWithPath: path)))
    }

    @Test("the samples build: one Apple manifest per pack, valid against the schema, every file selector on disk, each device's packs exactly its bundles' files")
    func samplesBuild() async throws {
        let workspace = try Workspace()
        let out = "\(workspace.root)/out"
        let outcome = try await buildSamples(into: out)
        #expect(outcome.report.succeeded)
        let manifest = try #require(outcome.manifest)
        let schema = try JSONSchemaCheck(schemaFile: "\(Workspace.packageRoot)/docs/schemas/managed-asset-pack.schema.json")
        let index = try JSONDecoder().decode(ManagedAssetPackIndex.self, from: Data(contentsOf: URL(fileURLWithPath: "\(out)/apple/asset-packs.json")))
        let manifests = try FileManager.default.contentsOfDirectory(atPath: "\(out)/apple/asset-packs").sorted()
        // The schema rejects what Tessera used to write: a string policy, "iPadOS", no files.
        let old: [String: Any] = ["assetPackID": "pack 1", "downloadPolicy": "essential", "fileSelectors": [[String: String]](),
                                  "platforms": ["iPadOS"]]
        #expect(schema.problems(old) == ["$.assetPackID: 'pack 1' does not match ^[A-Za-z0-9][A-Za-z0-9._-]{0,127}$",
                                         "$.downloadPolicy: not a object", "$.fileSelectors: fewer than 1 items",
                                         "$.platforms[0]: iPadOS is not one of [\"iOS\", \"macOS\", \"tvOS\", \"visionOS\"]"])
        #expect(manifests == index.assetPacks.map { "\($0.assetPackID).json" }.sorted())
        #expect(index.assetPacks.count <= ManagedAssetPackPlan.idLimit && Set(index.assetPacks.map(\.assetPackID)).count == index.assetPacks.count)
        for name in manifests {
            let document = try json("\(out)/apple/asset-packs/\(name)")
            #expect(schema.problems(document) == [], "\(name)")
            let selectors = ((document as? [String: Any])?["fileSelectors"] as? [[String: String]]) ?? []
            for selector in selectors { #expect(FileManager.default.fileExists(atPath: "\(out)/\(selector["file"] ?? "?")"), "\(name): \(selector)") }
        }
        // Each device class gets, through its packs, exactly the files of its own bundles.
        let owners = Dictionary(manifest.assets.flatMap { $0.variants.flatMap { variant in
            [(BundleEntryName.entry(forOutput: variant.path, folder: "assets"), variant.path)]
                + (variant.readyBitmap.map { [(BundleEntryName.entry(forOutput: $0.path, folder: "bitmaps"), $0.path)] } ?? [])
        } }) { first, _ in first }
        for device in manifest.deviceClasses {
            let fromPacks = Set(index.assetPacks.filter { $0.devices.contains(device.id) }.flatMap(\.files))
            let fromBundles = Set(manifest.bundles.filter { $0.device == device.id }.flatMap(\.entries).compactMap { owners[$0] })
            #expect(fromPacks == fromBundles, "\(device.id)")
        }
        // Policies follow the pack categories: untagged essential, `prefetch-order` tags prefetch.
        let policy = Dictionary(uniqueKeysWithValues: index.assetPacks.map { ($0.assetPackID, $0.downloadPolicy) })
        #expect(policy["base.iphone-3x"] == "essential" && policy["Blue_Star.ipad-iphone-2x-3x"] == "prefetch"
                && policy["Green_Square.iphone-1x"] == "onDemand", "\(policy)")
        #expect(index.assetPacks.allSatisfy { $0.platforms == ["iOS"] && $0.bundle != nil })
        // The deprecated ODR plists are not written unless asked for; Background Assets' old per-device files are gone.
        #expect(!FileManager.default.fileExists(atPath: "\(out)/OnDemandResources.plist"))
        #expect(!FileManager.default.fileExists(atPath: "\(out)/background-assets"))
        #expect(!outcome.report.warnings.contains { $0.reason.contains("On-Demand Resources are deprecated") })
    }

    @Test("the generated device filter parses as Swift and maps each device class to its own packs")
    func generatedFilter() async throws {
        let workspace = try Workspace()
        let out = "\(workspace.root)/out"
        _ = try await buildSamples(into: out)
        let source = try String(contentsOfFile: "\(out)/apple/TesseraAssetPacks.swift", encoding: .utf8)
        #expect(source.contains(#""iPhone15,2": ["": "base.iphone-3x", "Blue,Circle": "Blue_Circle.ipad-iphone-2x-3x""#))
        #expect(source.contains(#""iPhone2,1": ["": "base.iphone-1x""#))
        #expect(source.contains(#"static let fallback: [String: String] = ["iPad": "iPad14,1", "iPhone": "iPhone2,1"]"#))
        let parse = Process()
        parse.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        parse.arguments = ["swiftc", "-parse", "\(out)/apple/TesseraAssetPacks.swift"]
        try parse.run()
        parse.waitUntilExit()
        #expect(parse.terminationStatus == 0)
    }

    @Test("universal IDs: one pack per tag set with every device class's files; ODR plists on request, with a deprecation warning")
    func universalAndODR() async throws {
        let workspace = try Workspace()
        let out = "\(workspace.root)/out"
        let outcome = try await buildSamples(into: out, pack: "    apple-pack-ids: universal\n    apple-odr: true\n")
        let index = try JSONDecoder().decode(ManagedAssetPackIndex.self, from: Data(contentsOf: URL(fileURLWithPath: "\(out)/apple/asset-packs.json")))
        let manifest = try #require(outcome.manifest)
        #expect(index.packIDs == "universal" && index.assetPacks.count == manifest.packs.count)
        let base = try #require(index.assetPacks.first { $0.assetPackID == "base" })
        #expect(base.devices.count == manifest.deviceClasses.count && base.bundle == nil)
        // Every scale of the untagged photo is in the one universal pack.
        #expect(base.files.filter { $0.hasPrefix("variants/Assets/photos/flower") }.count == 3, "\(base.files)")
        #expect(FileManager.default.fileExists(atPath: "\(out)/OnDemandResources.plist"))
        #expect(FileManager.default.fileExists(atPath: "\(out)/apple/iPhone15,2/AssetPackManifest.plist"))
        #expect(outcome.report.warnings.contains { $0.reason.contains("On-Demand Resources are deprecated") })
    }

    @Test("more pack IDs than Apple's 100 per app is an error naming the cap and the way out")
    func idLimit() throws {
        var manifest = Manifest(pipeline: "many", assets: [])
        manifest.deviceClasses = [try KnownDevices.device("iPhone15,2"), try KnownDevices.device("iPhone12,1")]
        for index in 0..<51 {
            manifest.packs.append(PackEntry(id: "p\(index)", tags: ["t\(index)"], category: .onDemand, priority: nil))
            for device in ["iPhone15,2", "iPhone12,1"] {
                manifest.bundles.append(BundleEntry(pack: "p\(index)", device: device, url: "", path: "", bytes: 1, uncompressedSize: 1,
                                                    sha256: ContentHash.of(Array("\(index) \(device)".utf8)), entries: []))
            }
        }
        #expect(throws: TesseraError.self) { try ManagedAssetPackPlan(manifest, ids: .perDeviceGroup) }
        do {
            _ = try ManagedAssetPackPlan(manifest, ids: .perDeviceGroup)
        } catch {
            #expect(error.reason.contains("102 managed asset pack IDs") && error.reason.contains("apple-pack-ids: universal"))
        }
        #expect(try ManagedAssetPackPlan(manifest, ids: .universal).packs.count == 51)
    }

    @Test("ba-package, when present, is run on each pack from the output folder; a refusal fails the build naming the pack")
    func runsBAPackage() async throws {
        let workspace = try Workspace()
        let log = "\(workspace.root)/ba-package.log"
        let tool = "\(workspace.root)/ba-package"
        try """
        #!/bin/sh
        echo "$(pwd) $*" >> '\(log)'
        [ -f "$1" ] || { echo "no manifest $1" >&2; exit 2; }
        case "$1" in *Green_Square*) [ -n "$REFUSE" ] && { echo "invalid file selector" >&2; exit 1; } ;; esac
        mkdir -p "$(dirname "$3")" && cp "$1" "$3"
        """.write(toFile: tool, atomically: true, encoding: .utf8)
        try FileManager.default.setAttributes([.posixPermissions: 0o755], ofItemAtPath: tool)
        let out = "\(workspace.root)/out"
        let run = try await TesseraProcess.run(["run", "\(Workspace.packageRoot)/Pipelines/samples.yml", "--input", "\(Workspace.packageRoot)/Samples",
                                          "--output", out, "--no-cache"], environment: ["TESSERA_BA_PACKAGE": tool])
        #expect(run.status == 0, "\(run.stderr)")
        let calls = try String(contentsOfFile: log, encoding: .utf8).split(separator: "\n")
        let packs = try FileManager.default.contentsOfDirectory(atPath: "\(out)/apple/asset-packs")
        #expect(calls.count == packs.count && calls.allSatisfy { $0.hasPrefix("\(out) apple/asset-packs/") && $0.contains(" -o apple/archives/") })
        #expect(try FileManager.default.contentsOfDirectory(atPath: "\(out)/apple/archives").count == packs.count)
        let refused = try await TesseraProcess.run(["run", "\(Workspace.packageRoot)/Pipelines/samples.yml", "--input", "\(Workspace.packageRoot)/Samples",
                                              "--output", "\(workspace.root)/refused", "--no-cache"],
                                             environment: ["TESSERA_BA_PACKAGE": tool, "REFUSE": "1"])
        #expect(refused.status != 0)
        #expect(refused.stderr.contains("Green_Square") && refused.stderr.contains("ba-package refused the pack"), "\(refused.stderr)")
    }
}
