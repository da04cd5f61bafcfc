import Foundation
import Slicing
import TestSupport
import Testing
import TesseraCore

/// What the folder reader's walk reads and leaves alone: hidden names, links, file names.
@Suite("Folder reader: the walk")
struct FolderWalkTests {
    private static func entries(_ result: AssetCatalogReader.Result) -> [String] {
        result.assets.map { asset in
            "\(asset.name.name) \(asset.kind.rawValue): " + asset.entries.map(\.file).joined(separator: ", ")
        }
    }

    @Test("hidden files and folders are never read, nor anything below a hidden folder; extensions are read in any case")
    func hidden() throws {
        let workspace = try Workspace()
        try workspace.add("png/pngsuite/basn2c08.png", as: "icons/star@2x.PNG")
        try workspace.add("png/pngsuite/basn2c08.png", as: "icons/.star@3x.png")
        try workspace.add("png/pngsuite/basn2c08.png", as: ".git/logo.png")
        try workspace.add("png/pngsuite/basn2c08.png", as: "icons/.cache/deep/moon.png")
        try workspace.write(Array("{}".utf8), as: ".hidden.xcassets/Contents.json")
        try workspace.write([0x42, 0x4D], as: ".scans/scan.bmp")
        let result = try FolderCatalogReader().read(root: workspace.input)
        #expect(Self.entries(result) == ["icons/star image: icons/star@2x.PNG"])
        #expect(result.problems.isEmpty)
    }

    @Test("a link to a file inside is read under its own name; a link to a folder is never entered; a root given with a slash, or as a link, reads the same")
    func links() throws {
        let workspace = try Workspace()
        try workspace.add("png/pngsuite/basn2c08.png", as: "shared/moon@2x.png")
        try workspace.add("png/pngsuite/basn2c08.png", as: "elsewhere/sun.png")
        let fm = FileManager.default
        try fm.createSymbolicLink(atPath: "\(workspace.input)/alias@3x.png", withDestinationPath: "shared/moon@2x.png")
        try fm.createSymbolicLink(atPath: "\(workspace.input)/linked", withDestinationPath: "shared")
        try fm.createSymbolicLink(atPath: "\(workspace.input)/outer", withDestinationPath: "\(workspace.root)")
        let expected = ["alias image: alias@3x.png", "elsewhere/sun image: elsewhere/sun.png", "shared/moon image: shared/moon@2x.png"]
        let result = try FolderCatalogReader().read(root: workspace.input)
        #expect(Self.entries(result) == expected)
        #expect(result.problems.isEmpty)
        #expect(Self.entries(try FolderCatalogReader().read(root: workspace.input + "/")) == expected)
        // The input folder named through a link (`-i Assets`, Assets → the real folder).
        try fm.createSymbolicLink(atPath: "\(workspace.root)/input-link", withDestinationPath: workspace.input)
        let throughLink = try FolderCatalogReader().read(root: "\(workspace.root)/input-link")
        #expect(Self.entries(throughLink) == expected)
        #expect(throughLink.problems.isEmpty)
    }

    @Test("a catalog that is a link: inside, read like any catalog; to a folder outside, an error naming it and not read")
    func linkedCatalogs() throws {
        let workspace = try Workspace()
        try workspace.write(Array(#"{"images":[{"filename":"a.png","idiom":"universal","scale":"2x"}]}"#.utf8),
                            as: "in/real/A.xcassets/Logo.imageset/Contents.json")
        try workspace.add("png/pngsuite/basn2c08.png", as: "in/real/A.xcassets/Logo.imageset/a.png")
        try workspace.write(Array(#"{"images":[]}"#.utf8), as: "away/B.xcassets/Far.imageset/Contents.json")
        let fm = FileManager.default
        try fm.createSymbolicLink(atPath: "\(workspace.input)/in/Linked.xcassets", withDestinationPath: "real/A.xcassets")
        try fm.createSymbolicLink(atPath: "\(workspace.input)/in/Away.xcassets", withDestinationPath: "../away/B.xcassets")
        let result = try FolderCatalogReader().read(root: "\(workspace.input)/in")
        #expect(result.problems.map(\.description) == ["Away.xcassets: error: a link to a path outside the input folder; not read"])
        #expect(Self.entries(result) == ["Linked/Logo image: Linked.xcassets/Logo.imageset/a.png",
                                         "real/A/Logo image: real/A.xcassets/Logo.imageset/a.png"])
    }
}
