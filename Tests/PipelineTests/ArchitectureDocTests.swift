import Foundation
import Testing
import TestSupport
@testable import tessera

/// `docs/architecture.md` is the contributor's map: these tests hold its module tree to the code,
/// so a module, a command or a type that is added, renamed or removed without the map changing
/// fails here instead of misleading the next reader (issue 57: three claims there had been false
/// for two rounds).
@Suite("docs/architecture.md is true to the code")
struct ArchitectureDocTests {
    private static let document = (try? String(contentsOfFile: "\(Workspace.packageRoot)/docs/architecture.md", encoding: .utf8)) ?? ""

    /// The fenced block that starts `Sources/`: one entry per module, indented two spaces.
    private static var tree: String {
        guard let start = document.range(of: "```\nSources/\n"),
              let end = document.range(of: "```", range: start.upperBound..<document.endIndex) else { return "" }
        return String(document[start.upperBound..<end.lowerBound])
    }

    /// Names that are not Tessera's own declarations: other projects' modules, types and formats,
    /// and the package's traits.
    private static let outsideNames: Set<String> = [
        "AsyncHTTPClient", "ByteStream", "DocC", "FoundationNetworking", "JSONDecoder", "MuPDF", "NSImage", "SwiftUI",
        "UIImage", "WebP", "IDs", "ActionResults", "CommandLineTool", "LossyPalette", "PDFRasterizing",
    ]

    @Test("the tree lists every module folder under Sources/ (and BuiltInPipelines, at Pipelines/) and no other")
    func everyModuleIsListed() throws {
        let tree = Self.tree
        try #require(!tree.isEmpty, "no Sources/ tree in docs/architecture.md")
        let listed = Set(tree.split(separator: "\n").compactMap { line -> String? in
            guard line.hasPrefix("  "), !line.hasPrefix("   "), let slash = line.firstIndex(of: "/") else { return nil }
            return String(line.dropFirst(2)[..<slash])
        })
        let folders = try FileManager.default.contentsOfDirectory(atPath: "\(Workspace.packageRoot)/Sources").filter {
            var isFolder: ObjCBool = false
            return FileManager.default.fileExists(atPath: "\(Workspace.packageRoot)/Sources/\($0)", isDirectory: &isFolder) && isFolder.boolValue
        }
        let modules = Set(folders).union(["BuiltInPipelines"])
        #expect(modules.subtracting(listed).isEmpty, "modules missing from the tree: \(modules.subtracting(listed).sorted())")
        #expect(listed.subtracting(modules).isEmpty, "the tree lists what is no module: \(listed.subtracting(modules).sorted())")
    }

    @Test("the tree's command list is exactly the tessera command's subcommands")
    func everyCommandIsListed() throws {
        let tree = Self.tree
        let start = try #require(tree.range(of: "Commands/ ("), "no Commands/ list in the tree")
        let end = try #require(tree.range(of: ";", range: start.upperBound..<tree.endIndex))
        let listed = Set(tree[start.upperBound..<end.lowerBound].split(separator: ",").map {
            $0.split(whereSeparator: \.isWhitespace).joined()
        })
        let commands = Set(Tessera.configuration.subcommands.map { $0._commandName })
        #expect(listed == commands, "missing: \(commands.subtracting(listed).sorted()); not commands: \(listed.subtracting(commands).sorted())")
    }

    @Test("every type, file or folder name the tree gives is declared in Sources/ (a struct, enum, class, protocol, actor, function or a file of that name)")
    func everyNameExists() throws {
        var declared: Set<String> = []
        let root = "\(Workspace.packageRoot)/Sources"
        let files = try #require(FileManager.default.enumerator(atPath: root))
        let declaration = try Regex(#"\b(?:struct|enum|class|protocol|actor|typealias|func|case|var|let)\s+([A-Za-z_][A-Za-z0-9_]*)"#)
        for case let path as String in files {
            let name = (path as NSString).lastPathComponent
            declared.insert((name as NSString).deletingPathExtension)
            guard [".swift", ".c", ".h"].contains(where: name.hasSuffix),
                  let text = try? String(contentsOfFile: "\(root)/\(path)", encoding: .utf8) else { continue }
            for match in text.matches(of: declaration) {
                if let word = match.output[1].substring { declared.insert(String(word)) }
            }
        }
        declared.insert("BuiltInPipelines")
        // CamelCase words: two capitals with lower case between or after (PNGDecoder, BuildCache).
        let camel = try Regex(#"\b[A-Z][A-Za-z0-9]*[a-z][A-Z][A-Za-z0-9]*\b|\b[A-Z]{2,}[a-z][A-Za-z0-9]*\b"#)
        let named = Set(Self.tree.matches(of: camel).map { String(Self.tree[$0.range]) })
        let unknown = named.subtracting(declared).subtracting(Self.outsideNames)
        #expect(named.count > 100, "the tree names \(named.count) things: the pattern no longer reads it")
        #expect(unknown.isEmpty, "docs/architecture.md names what Sources/ does not declare: \(unknown.sorted())")
    }
}
