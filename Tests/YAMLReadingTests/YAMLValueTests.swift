import Testing
import TesseraCore
import YAMLReading

/// Typed reads of YAML with errors that name the file, the line, the column and the key.
@Suite("YAML values")
struct YAMLValueTests {
    private func root(_ text: String) throws -> YAMLValue {
        let node = try #require(try YAMLDocument.compose(text, file: "f.yml"))
        return YAMLValue(node: node, file: "f.yml", keyPath: "")
    }

    @Test("a mapping's values read as their types; a wrong type names file:line:column and the key")
    func typedReads() throws {
        let fields = try root("name: x\ncount: 3\non: true\nsize: 2MiB\nlist: [a, b]\n")
            .mapping(allowedKeys: ["name", "count", "on", "size", "list"])
        #expect(try fields["name"]?.string() == "x")
        #expect(try fields["count"]?.int(in: 1...5) == 3)
        #expect(try fields["on"]?.bool() == true)
        #expect(try fields["size"]?.byteCount().bytes == 2 << 20)
        #expect(try fields["list"]?.list().map { try $0.string() } == ["a", "b"])
        let error = #expect(throws: TesseraError.self) { try fields["count"]?.int(in: 5...9) }
        #expect(error?.description.hasPrefix("f.yml:2:8:") == true, "\(String(describing: error))")
        #expect(error?.description.contains("'count'") == true)
    }

    @Test("an unknown key is refused with the keys that are allowed; a repeated key is refused at its second place")
    func unknownAndRepeatedKeys() throws {
        let unknown = #expect(throws: TesseraError.self) { try root("nmae: x\n").mapping(allowedKeys: ["name"]) }
        #expect(unknown?.description.contains("unknown key; expected one of name") == true, "\(String(describing: unknown))")
        let repeated = #expect(throws: YAMLSyntaxError.self) { try YAMLDocument.compose("a: 1\nb: 2\na: 3\n", file: "f.yml") }
        #expect(repeated?.location.hasPrefix("f.yml:3") == true, "\(String(describing: repeated))")
    }

    @Test("aliases that would expand past the limit are refused before they are expanded; syntax errors name their place")
    func expansionAndSyntax() throws {
        let big = String(repeating: "x", count: 100_000)
        let laughs = "a: &a \"\(big)\"\nb: [" + Array(repeating: "*a", count: 1_000).joined(separator: ", ") + "]\n"
        let error = #expect(throws: YAMLSyntaxError.self) { try YAMLDocument.compose(laughs, file: "f.yml") }
        #expect(error?.problem.contains("once its aliases are expanded") == true, "\(String(describing: error))")
        let broken = #expect(throws: YAMLSyntaxError.self) { try YAMLDocument.compose("a: [1, 2\n", file: "f.yml") }
        #expect(broken?.location.hasPrefix("f.yml:") == true)
    }
}
