import Foundation

/// The one rule for entry names, shared by every reader, `extract` and `verify`.
///
/// A name is checked on its UTF-8 bytes, split at `/` bytes, because that is how the file system
/// sees it: splitting a Swift `String` on `Character`s misses a `/` that a combining mark joins
/// into one grapheme (`"../" + U+0301 + "x"` has no `".."` Character component, yet the kernel
/// resolves `..`).
public enum BundleEntryName {
    /// The entry a build output file is packed under: `variants/App/icon~dark@3x.png` in folder
    /// `assets` → `assets/App/icon~dark@3x.png`. The pack stage names entries, and the client
    /// finds an asset's entry, through this one rule.
    public static func entry(forOutput path: String, folder: String) -> String {
        let prefix = "variants/"
        return folder + "/" + (path.hasPrefix(prefix) ? String(path.dropFirst(prefix.count)) : path)
    }

    /// Longest name in bytes (well under `PATH_MAX`, so the destination folder fits in front of it).
    public static let maxLength = 1024
    /// Longest path component in bytes (`NAME_MAX` on Linux and macOS).
    public static let maxComponentLength = 255

    /// Why `name` cannot be extracted safely, or nil when it can: it must be a relative path of
    /// non-empty components, none `.` or `..`, with no NUL byte (C APIs would cut the name there).
    public static func problem(with name: String) -> String? {
        let bytes = Array(name.utf8)
        let slash = UInt8(ascii: "/"), dot = UInt8(ascii: ".")
        if bytes.isEmpty { return "the name is empty" }
        if bytes.count > maxLength { return "the name is over \(maxLength) bytes" }
        if bytes.contains(0) { return "the name contains a NUL byte" }
        if bytes[0] == slash { return "the name is an absolute path" }
        for component in bytes.split(separator: slash, omittingEmptySubsequences: false) {
            if component.isEmpty { return "the name has an empty path component" }
            if component.elementsEqual([dot]) || component.elementsEqual([dot, dot]) {
                return "the name has a '\(String(decoding: component, as: UTF8.self))' path component"
            }
            if component.count > maxComponentLength {
                return "a path component is over \(maxComponentLength) bytes"
            }
        }
        return nil
    }

    /// The first pair of names that would land on the same file, or a file where a folder must be,
    /// on some file system where bundles are extracted: equal, or equal ignoring case or Unicode
    /// normalisation (APFS and HFS+ fold both by default), or `a` beside `a/b`.
    public static func conflict(in names: [String]) -> (first: String, second: String)? {
        var files: [[UInt8]: String] = [:]
        var folders: [[UInt8]: String] = [:]
        for name in names {
            let key = Array(name.lowercased().precomposedStringWithCanonicalMapping.utf8)
            if let earlier = files[key] ?? folders[key] { return (earlier, name) }
            files[key] = name
            // Every folder the name needs, split on `/` bytes as in `problem(with:)`.
            var end = key.count
            while let slash = key[..<end].lastIndex(of: UInt8(ascii: "/")) {
                end = slash
                let folder = Array(key[..<end])
                if let file = files[folder] { return (file, name) }
                if folders[folder] != nil { break }
                folders[folder] = name
            }
        }
        return nil
    }
}
