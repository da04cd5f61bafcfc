import Delivery
import Foundation
import Testing
import TesseraCore

/// Issue 39: a manifest is validated as a whole when decoded, so neither the build, the server
/// nor `TesseraClient` acts on a path outside the build, an absurd size or an endless list.
@Suite("Manifests validated on decode")
struct ManifestValidationTests {
    private static let hash = ContentHash.of(Array("bytes".utf8))

    private static func manifest(variantPath: String = "variants/icons/a@2x.png", bytes: Int = 10, width: Int = 2,
                                 bundlePath: String = "bundles/base/x.tsb", bundleURL: String = "https://cdn.example.com/b/x.tsb",
                                 bundleBytes: Int = 100, dataPath: String = "data/d.json") -> Manifest {
        let variant = VariantEntry(scale: .init(factor: 2)!, path: variantPath, format: .png, width: width, height: 2, bytes: bytes,
                                   sha256: hash, generated: false, source: "icons/a@2x.png")
        var manifest = Manifest(pipeline: "p", assets: [AssetEntry(name: AssetID("icons/a"), variants: [variant], tags: ["T"])],
                                data: [DataEntry(name: AssetID("d"), kind: "json", path: dataPath, bytes: 4, sha256: hash, tags: [])])
        manifest.bundles = [BundleEntry(pack: "base", device: "phone", url: bundleURL, path: bundlePath, bytes: bundleBytes,
                                        uncompressedSize: bundleBytes, sha256: hash, entries: ["variants/icons/a@2x.png"])]
        return manifest
    }

    private static func decode(_ manifest: Manifest) -> String? {
        let data = try! JSONEncoder().encode(manifest)
        do {
            _ = try Manifest.decode(data, source: "https://cdn.example.com/manifest.json")
            return nil
        } catch {
            #expect(error.file == "https://cdn.example.com/manifest.json")
            return error.reason
        }
    }

    @Test("a manifest Tessera writes decodes; relative bundle URLs and http(s) ones are both accepted")
    func validManifestsDecode() {
        #expect(Self.decode(Self.manifest()) == nil)
        #expect(Self.decode(Self.manifest(bundleURL: "/b/\(Self.hash.hex).tsb")) == nil)
        #expect(Self.decode(Self.manifest(bundleURL: "b/x.tsb?v=1")) == nil)
    }

    @Test("each path that would leave the build is refused, naming the field", arguments: [
        "../../etc/passwd", "/etc/passwd", "variants/../../x.png", "variants//x.png", "./x.png", "variants/.", "", "a\\..\\b", "a\u{0}b",
        String(repeating: "a", count: 1025),
    ])
    func unsafePathsAreRefused(_ path: String) {
        let variant = Self.decode(Self.manifest(variantPath: path))
        #expect(variant?.contains("variant path") == true, "\(variant ?? "accepted")")
        #expect(Self.decode(Self.manifest(bundlePath: path))?.contains("bundle path") == true)
        #expect(Self.decode(Self.manifest(dataPath: path))?.contains("data path") == true)
    }

    @Test("absurd sizes, negative sizes and non-http bundle URLs are refused")
    func sizesAndURLs() {
        #expect(Self.decode(Self.manifest(bundleBytes: 1 << 40))?.contains("at most 68719476736") == true)
        #expect(Self.decode(Self.manifest(bytes: -1))?.contains("-1 bytes") == true)
        #expect(Self.decode(Self.manifest(width: 1 << 21))?.contains("a side is at most") == true)
        for url in ["file:///etc/passwd", "javascript:alert(1)", "ftp://x/y.tsb", "https://x/\u{7}y"] {
            #expect(Self.decode(Self.manifest(bundleURL: url))?.contains("neither http(s) nor relative") == true, "\(url)")
        }
    }

    @Test("a manifest over 64 MiB is refused before it is parsed")
    func oversizedManifest() {
        let data = Data(count: ManifestLimits.maxBytes + 1)
        #expect(throws: TesseraError.self) { try Manifest.decode(data, source: "m.json") }
        do {
            _ = try Manifest.decode(data, source: "m.json")
        } catch {
            #expect(error.reason.contains("at most 67108864"))
        }
    }
}
