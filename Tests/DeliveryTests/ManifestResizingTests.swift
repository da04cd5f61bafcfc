import Delivery
import Foundation
import Testing
import TesseraCore

/// `assets[].resizing` (issue 53 item 2): the catalog's image slicing in the manifest, absent when
/// unset, older manifests still decoding, and every length validated as it is decoded.
@Suite("Manifest: image slicing")
struct ManifestResizingTests {
    private static let hash = ContentHash.of(Array("bytes".utf8))

    private static func manifest(resizing: ImageResizing?) -> Manifest {
        let variant = VariantEntry(scale: .init(factor: 2)!, path: "variants/Bubble@2x.png", format: .png, width: 110, height: 66,
                                   bytes: 10, sha256: hash, generated: false, source: "Bubble@2x.png")
        return Manifest(pipeline: "p", assets: [AssetEntry(name: AssetID("Bubble"), variants: [variant], tags: ["chat"], resizing: resizing)])
    }

    private static let bubble = ImageResizing(mode: .ninePart, center: .init(mode: .tile, width: 1, height: 1),
                                              capInsets: .init(top: 16, left: 27, bottom: 16, right: 28.5))

    @Test("written with sorted keys as {mode, center {mode, width, height}, capInsets {top, left, bottom, right}} and read back equal")
    func roundTrip() throws {
        let manifest = Self.manifest(resizing: Self.bubble)
        let bytes = try StableJSON.encode(manifest)
        let object = try JSONSerialization.jsonObject(with: Data(bytes)) as? [String: Any]
        let asset = try #require((object?["assets"] as? [[String: Any]])?.first)
        let written = try #require(asset["resizing"] as? [String: Any])
        #expect(written.keys.sorted() == ["capInsets", "center", "mode"] && written["mode"] as? String == "9-part")
        #expect(written["capInsets"] as? [String: Double] == ["top": 16, "left": 27, "bottom": 16, "right": 28.5])
        let center = try #require(written["center"] as? [String: Any])
        #expect(center["mode"] as? String == "tile" && center["width"] as? Double == 1 && center["height"] as? Double == 1)
        // Whole points are written as integers, as Xcode writes them.
        #expect(String(bytes: bytes, encoding: .utf8)?.contains(#""left" : 27,"#) == true)
        let read = try Manifest.decode(Data(bytes), source: "manifest.json")
        #expect(read == manifest && read.assets.first?.resizing == Self.bubble)
    }

    @Test("absent when unset, and a manifest written before the field decodes with none")
    func absentAndOldManifests() throws {
        let bytes = try StableJSON.encode(Self.manifest(resizing: nil))
        #expect(!(String(bytes: bytes, encoding: .utf8) ?? "").contains("resizing"))
        // What a build before slicing wrote for the same asset.
        let old = Data(#"{"assets":[{"name":"Bubble","tags":["chat"],"variants":[{"bytes":10,"format":"png","generated":false,"height":66,"path":"variants/Bubble@2x.png","scale":"2x","sha256":"\#(Self.hash.hex)","source":"Bubble@2x.png","width":110}]}],"bundles":[],"data":[],"deviceClasses":[],"packs":[],"pipeline":"p","version":1}"#.utf8)
        let read = try Manifest.decode(old, source: "old.json")
        #expect(read.assets.first?.name == AssetID("Bubble") && read.assets.first?.resizing == nil)
    }

    @Test("a length that is negative or beyond 2^20 points, or a mode Xcode does not write, is refused naming the asset and the field",
          arguments: [
            (#""capInsets":{"top":-1,"left":0,"bottom":0,"right":0},"center":{"mode":"tile"},"mode":"9-part""#, "resizing capInsets.top is -1.0"),
            (#""capInsets":{"top":0,"left":0,"bottom":0,"right":0},"center":{"mode":"tile","width":2e6},"mode":"9-part""#, "resizing center.width is 2000000.0"),
            (#""capInsets":{"top":0,"left":0,"bottom":0,"right":0},"center":{"mode":"tile"},"mode":"4-part""#, "not a Tessera manifest"),
            (#""capInsets":{"top":0,"left":0,"bottom":0,"right":0},"center":{"mode":"squash"},"mode":"9-part""#, "not a Tessera manifest"),
          ])
    func invalidValuesAreRefused(resizing: String, says: String) throws {
        let text = #"{"assets":[{"name":"Bubble","resizing":{\#(resizing)},"tags":[],"variants":[]}],"bundles":[],"data":[],"deviceClasses":[],"packs":[],"pipeline":"p","version":1}"#
        let error = #expect(throws: TesseraError.self) { try Manifest.decode(Data(text.utf8), source: "m.json") }
        #expect(error?.file == "m.json" && error?.reason.contains(says) == true, "\(String(describing: error))")
        if says.hasPrefix("resizing") { #expect(error?.reason.contains("asset \"Bubble\"") == true) }
    }

    @Test("a 3-part image's insets across its fixed direction are dropped when a manifest gives them, as when the catalog does")
    func threePartDecodedAsUsed() throws {
        let text = #"{"assets":[{"name":"Bar","resizing":{"capInsets":{"top":5,"left":10,"bottom":5,"right":12},"center":{"mode":"stretch"},"mode":"3-part-horizontal"},"tags":[],"variants":[]}],"bundles":[],"data":[],"deviceClasses":[],"packs":[],"pipeline":"p","version":1}"#
        let read = try Manifest.decode(Data(text.utf8), source: "m.json")
        #expect(read.assets.first?.resizing?.capInsets == ImageResizing.CapInsets(top: 0, left: 10, bottom: 0, right: 12))
    }

    @Test("a non-finite length is never a length in points")
    func nonFinite() {
        var resizing = Self.bubble
        resizing.capInsets.left = .infinity
        #expect(resizing.violation()?.contains("capInsets.left is inf") == true)
        resizing.capInsets.left = .nan
        #expect(resizing.violation()?.contains("capInsets.left is nan") == true)
        #expect(Self.bubble.violation() == nil)
    }
}
