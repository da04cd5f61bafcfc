import Delivery
import Foundation
import Manifests
import Testing
import TestSupport
import TesseraCore

/// A manifest with two packs built for one device class: the smallest input Apple's manifests
/// have something to say about.
private func twoPackManifest() throws -> Manifest {
    var manifest = Manifest(pipeline: "small", assets: [])
    manifest.deviceClasses = [try KnownDevices.device("iPhone15,2")]
    manifest.packs = [PackEntry(id: "p-stars", tags: ["Star", "Blue"], category: .prefetch, priority: 0.5),
                      PackEntry(id: "p-base", tags: ["Base"], category: .initialInstall, priority: nil)]
    for (pack, entries) in [("p-stars", ["variants/star@3x.png", "variants/blue@3x.png"]), ("p-base", ["variants/logo@3x.png"])] {
        let hash = ContentHash.of(Array(pack.utf8))
        manifest.bundles.append(BundleEntry(pack: pack, device: "iPhone15,2", url: "https://cdn.example.com/\(pack).tsb",
                                            path: "bundles/\(pack)/iPhone15,2.tsb", bytes: 100, uncompressedSize: 200,
                                            sha256: hash, entries: entries))
    }
    return manifest
}

@Suite("Manifests")
struct ManifestsTests {
    @Test("property lists: keys sorted, text escaped, nesting indented with tabs")
    func propertyList() {
        let list = PropertyList.dictionary(["b": .array([.integer(1), .bool(true), .real(0.5)]), "a": .string("x<&>y")])
        #expect(list.xml() == """
            <?xml version="1.0" encoding="UTF-8"?>
            <!DOCTYPE plist PUBLIC "-//Apple//DTD PLIST 1.0//EN" "http://www.apple.com/DTDs/PropertyList-1.0.dtd">
            <plist version="1.0">
            <dict>
            \t<key>a</key>
            \t<string>x&lt;&amp;&gt;y</string>
            \t<key>b</key>
            \t<array>
            \t\t<integer>1</integer>
            \t\t<true/>
            \t\t<real>0.5</real>
            \t</array>
            </dict>
            </plist>

            """)
    }

    @Test("manifest.json reads back as written, and the same manifest writes the same bytes")
    func roundTrip() throws {
        let workspace = try Workspace()
        let manifest = try twoPackManifest()
        try ManifestWriter.write(manifest, to: "\(workspace.root)/manifest.json")
        #expect(try ManifestWriter.read(from: "\(workspace.root)/manifest.json") == manifest)
        let bytes = try ManifestWriter.encode(manifest)
        #expect(FileManager.default.contents(atPath: "\(workspace.root)/manifest.json") == Data(bytes))
        #expect(bytes.last == 0x0A)
    }

    @Test("On-Demand Resources plists (opt-in): tags to packs, each pack's entries, one resource per bundle")
    func onDemandResources() throws {
        let workspace = try Workspace()
        let manifests = OnDemandResourcesFiles(manifest: try twoPackManifest())
        try manifests.write(into: workspace.root)
        #expect(Set(workspace.files(under: workspace.root).keys) == Set(manifests.fileNames))
        let resources = try String(contentsOfFile: "\(workspace.root)/OnDemandResources.plist", encoding: .utf8)
        #expect(resources.contains("<key>Blue</key>\n\t\t<dict>\n\t\t\t<key>NSAssetPacks</key>\n\t\t\t<array>\n\t\t\t\t<string>p-stars</string>"))
        #expect(resources.contains("<key>p-base</key>\n\t\t<array>\n\t\t\t<string>variants/logo@3x.png</string>"))
        let packs = try String(contentsOfFile: "\(workspace.root)/apple/iPhone15,2/AssetPackManifest.plist", encoding: .utf8)
        #expect(packs.components(separatedBy: "<key>bundleKey</key>").count == 3)
        #expect(packs.contains("<string>\(ContentHash.of(Array("p-stars".utf8)).hex)</string>"))
    }
}

/// The manifest is written in pieces, never encoded whole (issue 54, item 14: 100,000 assets took
/// gigabytes to encode in one pass).
@Suite("Manifests streamed")
struct StreamedManifestTests {
    /// Every list the writer streams, with names JSON escapes, optional fields set and unset,
    /// and nested lists.
    private func everyList() throws -> Manifest {
        let hash = ContentHash.of([7])
        let assets = (0..<7).map { index in
            AssetEntry(name: AssetID("Folder/asset \"\(index)\" é\\n"), variants: [
                VariantEntry(scale: .x2, path: "variants/a\(index)@2x.png", format: .png, width: 2, height: 3, bytes: 40 + index,
                             sha256: hash, generated: index % 2 == 0, source: "in/a\(index)@3x.png"),
                VariantEntry(scale: .x3, path: "variants/a\(index)@3x.png", format: .png, width: 3, height: 4, bytes: 90,
                             sha256: hash, generated: false, source: "in/a\(index)@3x.png"),
            ], tags: index % 3 == 0 ? [] : ["t\(index % 3)", "Star"], renderingIntent: index == 2 ? "template" : nil,
               preservesVectorRepresentation: index == 4,
               resizing: index == 5 ? ImageResizing(mode: .ninePart, center: .init(mode: .tile, width: 1.0 / 3, height: 0.5),
                                                    capInsets: .init(top: 8, left: 41.0 / 3, bottom: 8, right: 14)) : nil)
        }
        var manifest = Manifest(pipeline: "every/list", assets: assets, data: (0..<3).map {
            DataEntry(name: AssetID("Colour\($0)"), kind: "color", path: "data/c\($0).json", bytes: $0, sha256: hash, tags: [])
        })
        manifest.deviceClasses = [try KnownDevices.device("iPhone15,2")]
        manifest.packs = [PackEntry(id: "p-stars", tags: ["Star"], category: .prefetch, priority: 0.5)]
        manifest.bundles = (0..<4).map {
            BundleEntry(pack: "p-stars", device: "iPhone15,2", url: "https://cdn.example.com/b\($0).tsb", path: "bundles/b\($0).tsb",
                        bytes: 100, uncompressedSize: 200, sha256: hash, entries: ["variants/a\($0)@3x.png", "variants/a\($0)@2x.png"])
        }
        manifest.app = (0..<5).map {
            DataEntry(name: AssetID("Kept\($0)"), kind: "image", path: "app/A.xcassets/k\($0).png", bytes: 3, sha256: hash, tags: [])
        }
        manifest.appShares = ["iPhone15,2", "iPad14,1"].map { device in
            AppShare(device: device, assets: (0..<5).map { AppShareAsset(asset: "Kept\($0)", bytes: $0, files: ["app/A.xcassets/k\($0).png"]) })
        }
        // An empty share: its assets' empty array keeps its blank line.
        manifest.appShares?.append(AppShare(device: "iPad8,1", assets: []))
        manifest.objects = (0..<4).map {
            TransferObject(sha256: ContentHash.of([UInt8($0)]), bytes: 100 + $0, encoding: .identity, transferBytes: 100 + $0)
        }
        return manifest
    }

    @Test("byte for byte what one JSONEncoder pass makes, whatever the size of the pieces")
    func sameBytes() throws {
        for manifest in [try everyList(), Manifest(pipeline: "empty", assets: []), try twoPackManifest()] {
            let whole = try StableJSON.encode(manifest)
            for chunk in [1, 2, 3, 256] {
                #expect(try ManifestWriter.encode(manifest, chunk: chunk) == whole, "chunk \(chunk), \(manifest.pipeline)")
            }
        }
        let workspace = try Workspace()
        let manifest = try everyList()
        try ManifestWriter.write(manifest, to: "\(workspace.root)/manifest.json")
        #expect(FileManager.default.contents(atPath: "\(workspace.root)/manifest.json") == Data(try StableJSON.encode(manifest)))
        #expect(try ManifestWriter.read(from: "\(workspace.root)/manifest.json") == manifest)
    }
}

/// A manifest its readers would refuse is never written (issue 54, item 14).
@Suite("Manifests the readers would refuse")
struct UnreadableManifestTests {
    @Test("over the readers' size limit: nothing written, the error names the size, the limit and what to do")
    func overTheLimit() throws {
        let workspace = try Workspace()
        let path = "\(workspace.root)/manifest.json"
        let manifest = Manifest(pipeline: "big", assets: (0..<40).map { AssetEntry(name: AssetID("asset-\($0)"), variants: [], tags: []) })
        let size = try ManifestWriter.encode(manifest).count
        let error = #expect(throws: TesseraError.self) { try ManifestWriter.write(manifest, to: path, limit: size - 1) }
        #expect(error?.reason.contains("the manifest would be \(size) bytes (40 assets)") == true
                && error?.reason.contains("accept at most \(size - 1)") == true, "\(String(describing: error))")
        #expect(!FileManager.default.fileExists(atPath: path))
        try ManifestWriter.write(manifest, to: path, limit: size)
        #expect(FileManager.default.fileExists(atPath: path))
    }

    @Test("breaking a reader's rule (a path out of the build): nothing written, the rule named")
    func breaksARule() throws {
        let workspace = try Workspace()
        let path = "\(workspace.root)/manifest.json"
        let manifest = Manifest(pipeline: "bad", assets: [], data: [DataEntry(name: AssetID("x"), kind: "data", path: "../x",
                                                                               bytes: 1, sha256: ContentHash.of([1]), tags: [])])
        let error = #expect(throws: TesseraError.self) { try ManifestWriter.write(manifest, to: path) }
        #expect(error?.reason.contains("would be refused by its readers") == true && error?.reason.contains("\"../x\"") == true,
                "\(String(describing: error))")
        #expect(!FileManager.default.fileExists(atPath: path))
    }
}
