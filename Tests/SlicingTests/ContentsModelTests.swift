import Delivery
import Foundation
@testable import Slicing
import Testing
import TesseraCore
import TestSupport
import YAMLReading

/// The typed Contents.json model read from real catalogs, and the problems it names.
@Suite("Catalog reader: the Contents.json model")
struct ContentsModelTests {
    private static let thinning = "\(Workspace.packageRoot)/Tests/Fixtures/catalogs/ThinningApp"

    /// Every set folder's Contents.json under `root`, relative to it, with its kind.
    private static func sets(under root: String) -> [(path: String, kind: SetKind)] {
        let paths = FileManager.default.enumerator(atPath: root)?.compactMap { $0 as? String } ?? []
        return paths.sorted().compactMap { path in
            guard path.hasSuffix("/Contents.json") else { return nil }
            let folder = URL(fileURLWithPath: path).deletingLastPathComponent().pathExtension
            return SetKind(rawValue: folder).map { (path, $0) }
        }
    }

    private static func decode(_ path: String, under root: String, kind: SetKind)
        -> (contents: SetContents?, problems: [CatalogProblem]) {
        var problems: [CatalogProblem] = []
        guard let top = ContentsFile.read("\(root)/\(path)", file: path, boundary: InputBoundary(root: root),
                                          required: true, problems: &problems) else { return (nil, problems) }
        return (SetContents(top, kind: kind, problems: &problems), problems)
    }

    @Test("every set in the fixtures, the corpus catalogs and the Samples decodes, with its entries and no errors",
          arguments: ["Tests/Fixtures/catalogs/ThinningApp", "Tests/Fixtures/corpus/xcassets", "Samples"])
    func realCatalogs(_ folder: String) throws {
        let root = "\(Workspace.packageRoot)/\(folder)"
        let sets = Self.sets(under: root)
        #expect(!sets.isEmpty)
        for (path, kind) in sets {
            let (contents, problems) = Self.decode(path, under: root, kind: kind)
            let decoded = try #require(contents, "\(path): \(problems)")
            #expect(!problems.contains { $0.isError }, "\(path): \(problems)")
            let data = try Data(contentsOf: URL(fileURLWithPath: "\(root)/\(path)"))
            let object = try #require(try JSONSerialization.jsonObject(with: data) as? [String: Any])
            #expect(decoded.entries.count == (object[kind.listKey] as? [Any])?.count ?? 0, "\(path)")
            for entry in decoded.entries where kind != .color {
                #expect(entry.traits != nil && entry.filename != .notAString, "\(path) \(entry.field.key)")
            }
        }
    }

    @Test("the typed fields of ThinningApp's sets: vectors, intent, tags, directions, appearances, empty slots")
    func thinningApp() throws {
        let catalog = "App/Assets.xcassets"
        let map = try #require(Self.decode("\(catalog)/Levels/Map.imageset/Contents.json", under: Self.thinning,
                                           kind: .image).contents)
        #expect(map.properties.preservesVectorRepresentation && map.properties.declaresSingleScale)
        #expect(map.properties.templateRenderingIntent == "template" && map.properties.onDemandTags == ["maps"])
        #expect(map.entries.map(\.filename) == [.name("Map.pdf")] && map.entries[0].traits?.scale == nil)

        let arrow = try #require(Self.decode("\(catalog)/Arrow.imageset/Contents.json", under: Self.thinning,
                                             kind: .image).contents)
        #expect(arrow.entries.map(\.filename) == [.name("arrow@2x.png"), .name("arrow-rtl@2x.png"), .none])
        #expect(arrow.entries.map { $0.traits?.layoutDirection } == [.leftToRight, .rightToLeft, nil])
        #expect(arrow.entries.map { $0.traits?.scale } == [.x2, .x2, .x3])

        let icon = try #require(Self.decode("\(catalog)/AppIcon.appiconset/Contents.json", under: Self.thinning,
                                            kind: .appIcon).contents)
        #expect(icon.entries.map { $0.traits?.appearances ?? ["?"] } == [[], ["dark"], ["tinted"]])
        #expect(Set(icon.entries.map { "\($0.traits?.platform ?? "-") \($0.traits?.size ?? "-")" }) == ["ios 1024x1024"])

        var problems: [CatalogProblem] = []
        let levels = ContentsFile.read("\(Self.thinning)/\(catalog)/Levels/Contents.json", file: "Levels/Contents.json",
                                       boundary: InputBoundary(root: Self.thinning), required: false, problems: &problems)
        let group = GroupContents(group: levels, problems: &problems)
        #expect(group.providesNamespace && group.onDemandTags == ["level1"] && problems.isEmpty)
    }

    @Test("each problem names the Contents.json and the key; a bad entry keeps its errors until it is read")
    func problemsNamePathAndKey() throws {
        let workspace = try Workspace()
        let text = #"{"images": [{"filename": "a.png", "scale": 2, "idiom": "phone"}, {"filename": 3}, {"filename": "b.png", "idiom": "pad", "display-gamut": "P3"}],"#
            + #" "properties": {"scales": "many", "on-demand-resource-tags": "one", "weird": 1}, "extra": []}"#
        try workspace.write(Array(text.utf8), as: "A.xcassets/S.imageset/Contents.json")
        let (contents, problems) = Self.decode("A.xcassets/S.imageset/Contents.json", under: workspace.input, kind: .image)
        #expect(problems.map(\.description) == [
            "A.xcassets/S.imageset/Contents.json: warning: 'extra': unknown key",
            "A.xcassets/S.imageset/Contents.json: warning: 'properties.weird': unknown key",
            "A.xcassets/S.imageset/Contents.json: error: 'properties.on-demand-resource-tags': expected a list of strings",
            "A.xcassets/S.imageset/Contents.json: error: 'properties.scales': expected \"single\" or \"individual\"",
        ])
        let entries = try #require(contents?.entries)
        #expect(entries.map(\.filename) == [.name("a.png"), .notAString, .name("b.png")])
        #expect(entries[0].traits == nil && entries[0].traitProblems.map(\.description) == [
            "A.xcassets/S.imageset/Contents.json: error: 'images[0].scale': expected a string (like \"2x\"), found 2",
        ])
        #expect(entries[2].traits == nil && entries[2].traitProblems.map(\.description) == [
            "A.xcassets/S.imageset/Contents.json: warning: 'images[2].idiom': unknown idiom 'pad'",
            "A.xcassets/S.imageset/Contents.json: error: 'images[2].display-gamut': 'P3' is not sRGB or display-P3",
        ])

        try workspace.write(Array(#"{"images": [1]}"#.utf8), as: "A.xcassets/L.imageset/Contents.json")
        #expect(Self.decode("A.xcassets/L.imageset/Contents.json", under: workspace.input, kind: .image).problems
            .map(\.description) == ["A.xcassets/L.imageset/Contents.json: error: 'images': expected a list of objects"])
        try workspace.write(Array("[]".utf8), as: "A.xcassets/T.imageset/Contents.json")
        #expect(Self.decode("A.xcassets/T.imageset/Contents.json", under: workspace.input, kind: .image).problems
            .map(\.description) == ["A.xcassets/T.imageset/Contents.json: error: the top level is not a JSON object"])
    }
}

/// `tessera.yml` read through the shared YAML reader: every problem names its line and column.
@Suite("Catalog reader: tessera.yml")
struct FolderTagRulesTests {
    private func problems(_ yaml: String) throws -> [String] {
        let workspace = try Workspace()
        try workspace.add("png/pngsuite/basn2c08.png", as: "icons/star.png")
        try workspace.write(Array(yaml.utf8), as: "tessera.yml")
        return try FolderCatalogReader().read(root: workspace.input).problems.map(\.description)
    }

    @Test("rules apply in file order and a bad entry is left out; each problem is at its line, column and key")
    func located() throws {
        let workspace = try Workspace()
        try workspace.add("png/pngsuite/basn2c08.png", as: "icons/star.png")
        try workspace.write(Array("colour: blue\ntags:\n  \"icons/**\": [b, a/b, a]\n  \"*\": nope\n  \"**\": [c]\n".utf8),
                            as: "tessera.yml")
        let result = try FolderCatalogReader().read(root: workspace.input)
        #expect(result.assets.first?.tags == ["a", "b", "c"])
        #expect(result.problems.map(\.description) == [
            "tessera.yml:1:1: warning: 'colour': unknown key",
            "tessera.yml:3:19: error: 'tags.icons/**': tag 'a/b' contains '/'",
            "tessera.yml:4:8: error: 'tags.*': expected a list of tags",
        ])
    }

    @Test("a syntax error or a repeated key is placed at its line; tags that are not a mapping are an error at theirs")
    func syntax() throws {
        #expect(try problems("tags:\n  \"**\": [a\n") == [
            "tessera.yml:3:1: error: not valid YAML: did not find expected ',' or ']'",
        ])
        #expect(try problems("tags:\n  a: [x]\n  a: [y]\n") == [
            "tessera.yml:3:3: error: not valid YAML: the key 'a' appears twice (first at line 2)",
        ])
        #expect(try problems("\ntags: [a]\n") == ["tessera.yml:2:7: error: 'tags': expected a mapping of globs to tag lists"])
        #expect(try problems("# nothing yet\n").isEmpty)
    }

    @Test("the shared YAML reader charges its errors to the stage it is given, down to every child")
    func stage() throws {
        let node = try #require(try YAMLDocument.compose("tags:\n  a: 3\n", file: "tessera.yml"))
        let value = YAMLValue(node: node, file: "tessera.yml", keyPath: "", stage: .catalog)
        let tags = try #require(try value.mapping(allowedKeys: ["tags"])["tags"])
        let error = tags.error("expected a mapping")
        #expect(error.origin == .catalog && error.file == "tessera.yml:2:3" && error.reason == "'tags': expected a mapping")
    }
}
