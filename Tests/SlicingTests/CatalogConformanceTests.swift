import Foundation
import Slicing
import TestSupport
import Testing

/// `docs/catalog-conformance.md` covers everything the readers accept: a key added to a reader
/// without a row saying what it does to what a device gets fails here.
@Suite("Catalog conformance table")
struct CatalogConformanceTests {
    /// The first cell of every table row of the page.
    private static func firstCells() throws -> [String] {
        let page = try String(contentsOfFile: "\(Workspace.packageRoot)/docs/catalog-conformance.md", encoding: .utf8)
        return page.split(separator: "\n").filter { $0.hasPrefix("| ") && !$0.hasPrefix("|---") }
            .map { String($0.dropFirst(2).prefix { $0 != "|" }) }
    }

    @Test("every key, value, folder kind and Android qualifier the readers accept has a row",
          arguments: [
            ("set key", CatalogVocabulary.setKeys), ("entry key", CatalogVocabulary.entryKeys),
            ("property", CatalogVocabulary.propertyKeys), ("folder kind", CatalogVocabulary.folderKinds),
            ("idiom", CatalogVocabulary.idioms), ("appearance", CatalogVocabulary.appearances),
            ("Android qualifier", CatalogVocabulary.androidQualifiers),
          ])
    func everyAcceptedKeyHasARow(kind: String, accepted: Set<String>) throws {
        let cells = try Self.firstCells()
        let missing = accepted.filter { key in !cells.contains { $0.contains("`\(key)`") } }.sorted()
        #expect(missing.isEmpty, "\(kind)s with no row in docs/catalog-conformance.md: \(missing)")
    }
}
