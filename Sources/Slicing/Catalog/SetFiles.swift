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
        for entry in contents.entries {
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
            problems += entry.intentProblems
            entries.append(CatalogEntry(file: context.relative(path), traits: traits, format: format,
                                        templateRenderingIntent: entry.templateRenderingIntent))
        }
        return entries
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
        return path
    }
}
