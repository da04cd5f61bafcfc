import Foundation

/// How a build's folders stand to each other, as a plan record keys them: the input folder's own
/// name (a catalog given as `--input` names its catalog) and the way from it to the output
/// (`../out`, `build`). Not where they are: a second checkout at another absolute path (a CI
/// runner's `/builds/…/project`, a laptop's `~/src/project`), a copy without `.git` (a Docker build
/// context, an artifact) and the checkout it was copied from all take one record. Nothing a build
/// writes depends on more: outputs name sources relative to the input, and the warnings a record
/// keeps name files by placeholders for the two folders (`PlanRecord.portable`).
///
/// It replaced a key relative to the nearest `.git`, which gave a checkout and its copy without
/// `.git` two keys, so the copy always planned again (issue 38).
struct FolderRelation: Hashable {
    let inputName: String
    let outputFromInput: String

    init(input: String, output: String) {
        let from = Self.absolute(input), to = Self.absolute(output)
        inputName = from.split(separator: "/").last.map(String.init) ?? "/"
        outputFromInput = Self.relative(to, from: from)
    }

    /// `path` relative to `base` (`.` for the same folder, `../out` beside it), by text.
    static func relative(_ path: String, from base: String) -> String {
        if path == base { return "." }
        let from = base.split(separator: "/"), to = path.split(separator: "/")
        let shared = zip(from, to).prefix { $0 == $1 }.count
        return (Array(repeating: "..", count: from.count - shared) + to[shared...].map(String.init)).joined(separator: "/")
    }

    /// An absolute, standardised path (no `.`, `..` or trailing `/`), symbolic links kept.
    static func absolute(_ path: String) -> String {
        let base = path.hasPrefix("/") ? path : FileManager.default.currentDirectoryPath + "/" + path
        return URL(fileURLWithPath: base).standardized.path
    }
}
