import Foundation
import Testing
import TesseraCore

/// `Glob` (tessera.yml tag rules, decompress.include, keep-in-app): the shell's rules, and no
/// amplification — a pattern of stars against a long name is decided in steps proportional to
/// their lengths (issue 39, item 5).
@Suite("Globs")
struct GlobTests {
    @Test("* and ? stay within a segment, ** spans segments and also matches no folder", arguments: [
        ("*.png", "icon.png", true), ("*.png", "a/icon.png", false), ("**/*.png", "icon.png", true),
        ("**/*.png", "a/b/icon.png", true), ("a/**", "a/b/c", true), ("a/**/c", "a/c", true), ("a/**/c", "a/x/y/c", true),
        ("icon?.png", "icon1.png", true), ("icon?.png", "icon/.png", false), ("Levels/*", "Levels/Map", true),
        ("Levels/*", "Levels/a/Map", false), ("*", "", true), ("", "", true), ("", "a", false), ("a*b*c", "abc", true),
        ("a*b*c", "acb", false), ("**", "x/y/z", true),
    ])
    func rules(pattern: String, name: String, expected: Bool) {
        #expect(Glob(pattern).matches(name) == expected, "\(pattern) against \(name)")
    }

    @Test("a pattern of many stars against a long name that it does not match is decided at once, not after minutes of backtracking")
    func noBacktrackingBlowUp() {
        let name = String(repeating: "a", count: 4_000)
        let pattern = String(repeating: "*a", count: 24) + "*b"
        let started = Date()
        #expect(!Glob(pattern).matches(name))
        #expect(Glob(String(repeating: "*a", count: 24)).matches(name))
        // Exponential backtracking took 23 s at 9 stars; memoised, 24 stars are milliseconds.
        #expect(Date().timeIntervalSince(started) < 5)
    }
}
