import Foundation
import Slicing
import TestSupport
import Testing

/// Links inside a catalog are read as in a plain folder: a link back to a folder already read is
/// passed over with a warning, so the walk is linear in the tree (issue 54, item 4).
@Suite("Links inside catalogs")
struct CatalogLinkTests {
    private static func layOut(_ workspace: Workspace, sets: Int) throws {
        try workspace.write(Array(#"{"info":{"author":"xcode","version":1}}"#.utf8), as: "A.xcassets/Contents.json")
        for index in 0..<sets {
            try workspace.write(Array(#"{"images":[{"filename":"i.png","idiom":"universal","scale":"2x"}]}"#.utf8),
                                as: "A.xcassets/G/S\(index).imageset/Contents.json")
            try workspace.add("png/pngsuite/basn2c08.png", as: "A.xcassets/G/S\(index).imageset/i.png")
        }
    }

    @Test("two links back up a catalog group (up -> .., again -> ../G) read each set once, quickly, with one warning a link")
    func linksBackUpAreNotFollowed() throws {
        let workspace = try Workspace()
        try Self.layOut(workspace, sets: 30)
        try FileManager.default.createSymbolicLink(atPath: "\(workspace.input)/A.xcassets/G/up", withDestinationPath: "..")
        try FileManager.default.createSymbolicLink(atPath: "\(workspace.input)/A.xcassets/G/again", withDestinationPath: "../G")
        let started = Date()
        for root in [workspace.input, "\(workspace.input)/A.xcassets"] {
            let read = try FolderCatalogReader().read(root: root)
            #expect(read.assets.count == 30, "\(root): \(read.assets.count) assets")
            #expect(!read.problems.contains { $0.isError }, "\(read.problems)")
            let links = read.problems.filter { $0.reason.contains("a link to a folder already read") }
            #expect(links.map { ($0.file as NSString).lastPathComponent }.sorted() == ["again", "up"], "\(read.problems)")
        }
        #expect(Date().timeIntervalSince(started) < 10, "the walk must not follow links back up")
        // A link up to the folder holding the catalog is not read as a catalog group either.
        try FileManager.default.createSymbolicLink(atPath: "\(workspace.input)/A.xcassets/G/top", withDestinationPath: "../..")
        let read = try FolderCatalogReader().read(root: workspace.input)
        #expect(read.assets.count == 30 && !read.problems.contains { $0.isError }, "\(read.problems)")
        #expect(read.problems.contains { $0.file.hasSuffix("G/top") && $0.reason.contains("a link to a folder already read") })
    }

    @Test("a link to a folder not read elsewhere is followed: a shared group linked into the catalog is read")
    func linkToAnotherFolderIsRead() throws {
        let workspace = try Workspace()
        try Self.layOut(workspace, sets: 2)
        try workspace.write(Array(#"{"images":[{"filename":"s.png","idiom":"universal","scale":"2x"}]}"#.utf8),
                            as: "Shared/Star.imageset/Contents.json")
        try workspace.add("png/pngsuite/basn2c08.png", as: "Shared/Star.imageset/s.png")
        try FileManager.default.createSymbolicLink(atPath: "\(workspace.input)/A.xcassets/Shared",
                                                   withDestinationPath: "\(workspace.input)/Shared")
        let read = AssetCatalogReader().read(catalogPath: "\(workspace.input)/A.xcassets", relativeTo: workspace.input)
        #expect(read.assets.map(\.name.name).sorted() == ["G/S0", "G/S1", "Shared/Star"] || read.assets.map(\.name.name).sorted() == ["S0", "S1", "Star"],
                "\(read.assets.map(\.name.name))")
        #expect(read.problems.isEmpty, "\(read.problems)")
    }
}
