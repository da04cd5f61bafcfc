import Delivery
import Foundation
import Testing
import TesseraCore

/// An update decodes only the elements of the new manifest the held one lacks
/// (`Manifest.decode(_:source:reusing:decodedFrom:)`): the result must be exactly the whole decode's,
/// and anything it does not expect must go to the whole decode.
@Suite("Manifests decoded reusing the held one")
struct ManifestReuseDecodingTests {
    private static func manifest(assets count: Int, changed: Int? = nil) -> Manifest {
        let assets = (0..<count).map { index in
            let bytes = Array("asset \(index)\(index == changed ? " changed" : "")".utf8)
            let variant = VariantEntry(scale: .init(factor: 2)!, path: "variants/a\(index)@2x.png", format: .png, width: 2, height: 2,
                                       bytes: bytes.count, sha256: ContentHash.of(bytes), generated: false, source: "a\(index)@2x.png")
            return AssetEntry(name: AssetID("a\(index)"), variants: [variant], tags: ["T\(index % 3)"])
        }
        var manifest = Manifest(pipeline: "p", assets: assets)
        manifest.bundles = (0..<3).map { tag in
            let entries = assets.filter { $0.tags == ["T\(tag)"] }.map { "assets/\($0.variants[0].path.dropFirst("variants/".count))" }
            let hash = ContentHash.of(Array(entries.joined(separator: "\n").utf8 + (changed.map { [UInt8($0 % 3 == tag ? 1 : 0)] } ?? [])))
            return BundleEntry(pack: "T\(tag)", device: "phone", url: "bundles/T\(tag).tsb", path: "bundles/T\(tag).tsb", bytes: 100,
                               uncompressedSize: 100, sha256: hash, entries: entries)
        }
        manifest.objects = assets.map { TransferObject(sha256: $0.variants[0].sha256, bytes: $0.variants[0].bytes, encoding: .identity,
                                                       transferBytes: $0.variants[0].bytes) }
            .sorted { $0.sha256 < $1.sha256 }
        return manifest
    }

    private static func bytes(_ manifest: Manifest) throws -> Data {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .prettyPrinted, .withoutEscapingSlashes]
        return try encoder.encode(manifest)
    }

    @Test("one asset changed: the result equals the whole decode, and a new or removed element is read too")
    func equalsTheWholeDecode() throws {
        let heldBytes = try Self.bytes(Self.manifest(assets: 40))
        let held = try Manifest.decode(heldBytes, source: "held")
        for next in [Self.manifest(assets: 40, changed: 7), Self.manifest(assets: 41), Self.manifest(assets: 39), Self.manifest(assets: 40)] {
            let data = try Self.bytes(next)
            let reused = try Manifest.decode(data, source: "next", reusing: held, decodedFrom: heldBytes)
            #expect(reused == (try Manifest.decode(data, source: "next")))
            #expect(reused == next)
        }
        // Compact JSON and a held manifest of other bytes (nothing to reuse) read the same.
        let compact = try JSONEncoder().encode(Self.manifest(assets: 40, changed: 3))
        #expect(try Manifest.decode(compact, source: "next", reusing: held, decodedFrom: heldBytes) == Manifest.decode(compact, source: "next"))
    }

    @Test("a key written twice or with an escape, and JSON that does not parse, go to the whole decode: the same answer or the same refusal")
    func unexpectedLayoutsDecodeWhole() throws {
        let heldBytes = try Self.bytes(Self.manifest(assets: 5))
        let held = try Manifest.decode(heldBytes, source: "held")
        let text = String(decoding: try Self.bytes(Self.manifest(assets: 5, changed: 1)), as: UTF8.self)
        let twice = text.replacingOccurrences(of: "\"pipeline\" : \"p\"", with: "\"assets\" : [], \"pipeline\" : \"p\"")
        let escaped = text.replacingOccurrences(of: "\"assets\" :", with: "\"\\u0061ssets\" :")
        for variant in [twice, escaped, String(text.dropLast(2)), text + "x"] {
            let data = Data(variant.utf8)
            let whole = Result { () throws(TesseraError) in try Manifest.decode(data, source: "next") }
            let reused = Result { () throws(TesseraError) in try Manifest.decode(data, source: "next", reusing: held, decodedFrom: heldBytes) }
            switch (whole, reused) {
            case (.success(let a), .success(let b)): #expect(a == b)
            case (.failure, .failure): break
            default: Issue.record("the whole decode gave \(whole), reusing gave \(reused)")
            }
        }
    }

    @Test("an unsafe path in a changed element is refused as the whole decode refuses it")
    func changedElementsAreValidated() throws {
        let heldBytes = try Self.bytes(Self.manifest(assets: 5))
        let held = try Manifest.decode(heldBytes, source: "held")
        var next = Self.manifest(assets: 5)
        next.assets[2].variants[0].path = "../../etc/passwd"
        let data = try Self.bytes(next)
        #expect(throws: TesseraError.self) { try Manifest.decode(data, source: "next", reusing: held, decodedFrom: heldBytes) }
    }
}
