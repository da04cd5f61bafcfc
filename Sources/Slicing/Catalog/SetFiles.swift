import Foundation
import TesseraCore

/// The files a set's entries name, as catalog entries: each must be a plain name in the set
/// folder, exist, stay inside the input folder and (in image and app icon sets) be an image
/// Tessera can handle. An entry that fails is left out with its error; every other one is kept.
enum SetFiles {
    /// The entries of `contents` with a usable file, in list order. Colour sets name no files.
    static func entries(of contents: SetContents, folder: String, context: CatalogReadContext,
                        problems: inout [CatalogProblem]) -> [CatalogEntry] {
        guard contents.kind != .color else { return [] }
        var entries: [CatalogEntry] = []
        var named = Set<String>()
        for entry in contents.entries {
            if case .name(let name) = entry.filename { named.insert(name) }
            let field = entry.field["filename"]
            let filename: String
            switch entry.filename {
            case .none: continue
            case .notAString:
                problems.append(field.problem("expected a string"))
                continue
            case .name(let name): filename = name
            }
            guard let path = path(of: filename, in: folder, field: field, boundary: context.boundary,
                                  problems: &problems) else { continue }
            let format = ImageFormat(fileExtension: URL(fileURLWithPath: filename).pathExtension)
            if format == nil, contents.kind.holdsImages {
                problems.append(field.problem("Tessera cannot handle '\(filename)' (not PNG, JPEG, WebP, GIF, PDF, SVG "
                                              + "or HEIC); not carried", isError: false))
                continue
            }
            problems += entry.traitProblems
            guard let traits = entry.traits else { continue }
            problems += entry.intentProblems + entry.resizingProblems
            // Xcode writes an entry's slicing in the pixels of its own image: points are those over its scale.
            let points = entry.resizing.map { $0.scaled(by: 1 / Double(traits.scale?.factor ?? 1)) }
            entries.append(CatalogEntry(file: context.relative(path), traits: traits, format: format,
                                        templateRenderingIntent: entry.templateRenderingIntent, resizing: points))
        }
        problems += unassigned(in: folder, named: named, context: context)
        return entries
    }

    /// Files in the set's folder that no entry names: Xcode builds nothing from them either and
    /// warns ("an unassigned child"), so a file dropped in without editing Contents.json is said.
    private static func unassigned(in folder: String, named: Set<String>, context: CatalogReadContext) -> [CatalogProblem] {
        let names = ((try? FileManager.default.contentsOfDirectory(atPath: folder)) ?? []).sorted()
        return names.compactMap { name in
            guard name != "Contents.json", !name.hasPrefix("."), !named.contains(name) else { return nil }
            var isFolder: ObjCBool = false
            guard FileManager.default.fileExists(atPath: "\(folder)/\(name)", isDirectory: &isFolder), !isFolder.boolValue else {
                return nil
            }
            return CatalogProblem(isError: false, file: context.relative("\(folder)/\(name)"), key: nil,
                                  reason: "no entry of the set's Contents.json names this file (Xcode: an unassigned child); not built")
        }
    }

    /// The path of `filename` in `folder`; nil, with the error, when it leaves the folder, does
    /// not exist or is a link out of the input folder (such a file is never read).
    private static func path(of filename: String, in folder: String, field: ContentsField, boundary: InputBoundary,
                             problems: inout [CatalogProblem]) -> String? {
        guard InputBoundary.isPlainName(filename) else {
            problems.append(field.problem("'\(filename)' leaves the set folder; not read"))
            return nil
        }
        let path = "\(folder)/\(filename)"
        guard FileManager.default.fileExists(atPath: path) else {
            problems.append(field.problem("'\(filename)' does not exist"))
            return nil
        }
        guard boundary.contains(path) else {
            problems.append(field.problem("'\(filename)' is a link to a file outside the input folder; not read"))
            return nil
        }
        if let problem = InputBoundary.notARegularFile(path) {
            problems.append(field.problem("'\(filename)' is \(problem)"))
            return nil
        }
        return path
    }
}
