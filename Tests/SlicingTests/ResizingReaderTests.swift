import Delivery
import Foundation
import Slicing
import TestSupport
import Testing
import TesseraCore

/// Xcode's image slicing (`resizing` on an image entry, issue 53 item 2): read per entry, kept with
/// it, in the slice rows; a malformed one is a warning naming the Contents.json and the key.
@Suite("Image slicing: the catalog reader")
struct ResizingReaderTests {
    /// One image set `Slice` whose entries are `images`, each file a small PNG.
    private static func read(_ images: [[String: Any]]) throws -> (asset: CatalogAsset?, problems: [CatalogProblem]) {
        let workspace = try Workspace()
        try workspace.write(Array(try JSONSerialization.data(withJSONObject: ["images": images, "info": ["author": "xcode", "version": 1]])),
                            as: "A.xcassets/Slice.imageset/Contents.json")
        for case let file as String in images.map({ $0["filename"] }) {
            try workspace.add("png/pngsuite/basn2c08.png", as: "A.xcassets/Slice.imageset/\(file)")
        }
        let read = try FolderCatalogReader().read(root: workspace.input)
        return (read.assets.first, read.problems)
    }

    /// Xcode's slicing of a chat bubble, as its editor writes it.
    static var ninePart: [String: Any] { [
        "mode": "9-part",
        "center": ["mode": "tile", "width": 1, "height": 1],
        "cap-insets": ["top": 16, "left": 27, "bottom": 16, "right": 28],
    ] }

    @Test("each mode is read with its centre and insets, written in each image's pixels, in points; a 3-part image keeps only the caps of its direction; no unknown-key warning",
          arguments: [
            ("9-part", "tile", [16.0, 27, 16, 28]),
            ("3-part-horizontal", "stretch", [0.0, 27, 0, 28]),
            ("3-part-vertical", "tile", [16.0, 0, 16, 0]),
          ])
    func eachMode(mode: String, centerMode: String, insets: [Double]) throws {
        var resizing = Self.ninePart
        resizing["mode"] = mode
        resizing["center"] = ["mode": centerMode, "width": 1, "height": 2.5]
        let (asset, problems) = try Self.read([
            ["filename": "s.png", "idiom": "universal", "scale": "1x", "resizing": resizing],
            ["filename": "s@2x.png", "idiom": "universal", "scale": "2x", "resizing": resizing],
        ])
        #expect(problems.isEmpty, "\(problems)")
        let entries = try #require(asset?.entries)
        #expect(entries.count == 2)
        for entry in entries {
            // The same pixel values are half the points at 2x (Xcode writes each image's own pixels).
            let scale = Double(entry.traits.scale?.factor ?? 1)
            let read = try #require(entry.resizing)
            #expect(read.mode.rawValue == mode && read.center.mode.rawValue == centerMode)
            #expect(read.center.width == 1 / scale && read.center.height == 2.5 / scale)
            #expect([read.capInsets.top, read.capInsets.left, read.capInsets.bottom, read.capInsets.right] == insets.map { $0 / scale })
        }
        // The slice row carries it (what `slices/<id>.json` and `tessera slice --json` write).
        let asset2 = try #require(asset)
        let decision = try #require(VariantSelector.select(asset2, for: try KnownDevices.device("iPhone15,2")).first)
        let row = try JSONSerialization.jsonObject(with: JSONEncoder().encode(SliceRow(asset2, decision))) as? [String: Any]
        let written = try #require((row?["presentation"] as? [String: Any])?["resizing"] as? [String: Any])
        #expect(written["mode"] as? String == mode)
        #expect((written["center"] as? [String: Any])?["mode"] as? String == centerMode)
        // The iPhone's 2x entry, in points.
        let capInsets = try #require(written["capInsets"] as? [String: Double])
        #expect([capInsets["top"], capInsets["left"], capInsets["bottom"], capInsets["right"]] == insets.map { Optional.some($0 / 2) })
    }

    @Test("an entry without resizing has none, and its slice row no presentation")
    func absent() throws {
        let (asset, problems) = try Self.read([["filename": "s@2x.png", "idiom": "universal", "scale": "2x"]])
        #expect(problems.isEmpty, "\(problems)")
        let read = try #require(asset)
        #expect(read.entries.first?.resizing == nil)
        let decision = try #require(VariantSelector.select(read, for: try KnownDevices.device("iPhone15,2")).first)
        let row = try JSONSerialization.jsonObject(with: JSONEncoder().encode(SliceRow(read, decision))) as? [String: Any]
        #expect(row?["presentation"] == nil)
    }

    @Test("a malformed resizing is one warning naming the Contents.json and the key; the image still ships, unsliced",
          arguments: [
            ("\"9-part\"", "images[0].resizing", "expected an object"),
            (#"{"mode":"5-part"}"#, "images[0].resizing.mode", "\"9-part\""),
            (#"{"mode":"9-part","center":{"mode":"squash"}}"#, "images[0].resizing.center.mode", "\"tile\" or \"stretch\""),
            (#"{"mode":"9-part","cap-insets":{"top":-4}}"#, "images[0].resizing.cap-insets.top", "a length in points"),
            (#"{"mode":"9-part","cap-insets":{"left":"12"}}"#, "images[0].resizing.cap-insets.left", "a length in points"),
            (#"{"mode":"9-part","center":{"mode":"tile","width":-1}}"#, "images[0].resizing.center.width", "a length in points"),
          ])
    func malformed(resizing: String, key: String, says: String) throws {
        let value = try JSONSerialization.jsonObject(with: Data(resizing.utf8), options: [.fragmentsAllowed])
        let (asset, problems) = try Self.read([["filename": "s@2x.png", "idiom": "universal", "scale": "2x", "resizing": value]])
        #expect(problems.count == 1, "\(problems)")
        let problem = try #require(problems.first)
        #expect(!problem.isError && problem.file == "A.xcassets/Slice.imageset/Contents.json" && problem.key == key, "\(problem)")
        #expect(problem.reason.contains(says) && problem.reason.contains("without its slicing"), "\(problem)")
        #expect(asset?.entries.count == 1 && asset?.entries.first?.resizing == nil)
    }

    @Test("a key inside resizing Xcode does not write is an unknown-key warning naming it; the slicing is still read")
    func unknownInnerKey() throws {
        var resizing = Self.ninePart
        resizing["skew"] = 3
        let (asset, problems) = try Self.read([["filename": "s@2x.png", "idiom": "universal", "scale": "2x", "resizing": resizing]])
        #expect(problems.map(\.description) == ["A.xcassets/Slice.imageset/Contents.json: warning: 'images[0].resizing.skew': unknown key"])
        #expect(asset?.entries.first?.resizing?.mode == .ninePart)
    }

    @Test("one group's slicing is the entries' (in points: the 2x's pixels halved): a 1x without it beside a sliced 2x does not undo it")
    func groupTakesTheSlicing() throws {
        let (asset, problems) = try Self.read([
            ["filename": "s.png", "idiom": "universal", "scale": "1x"],
            ["filename": "s@2x.png", "idiom": "universal", "scale": "2x", "resizing": Self.ninePart],
            ["filename": "s@3x.png", "idiom": "universal", "scale": "3x"],
        ])
        #expect(problems.isEmpty, "\(problems)")
        let sources = CatalogSources.sourceImages([try #require(asset)], unsuffixedScale: .x1)
        let resizing = try #require(sources.presentation[AssetID("Slice")]?.resizing)
        #expect(resizing == ImageResizing(mode: .ninePart, center: .init(mode: .tile, width: 0.5, height: 0.5),
                                          capInsets: .init(top: 8, left: 13.5, bottom: 8, right: 14)))
    }
}
