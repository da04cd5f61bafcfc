import Delivery
import TesseraCore

/// What a manifest can name: a file whose path (or an asset whose name) every manifest reader
/// would refuse is refused here first, naming the file, so a build is never green with a manifest
/// no reader accepts (`Manifest.violation`, issue 54).
enum ListableNames {
    /// Room kept for what a build adds to a name in its outputs (`variants/`, `~dark@3x.png`, `app/`).
    static let outputMargin = 96

    /// `assets` less those that cannot be listed, each refused with an error naming its file.
    static func rejecting(_ assets: [CatalogAsset], problems: inout [CatalogProblem]) -> [CatalogAsset] {
        assets.filter { asset in
            let files = asset.entries.map(\.file) + (asset.contentsFile.map { [$0] } ?? [])
            for path in [asset.name.name] + files {
                if path.utf8.contains(UInt8(ascii: "\\")) {
                    problems.append(CatalogProblem(isError: true, file: files.first ?? path, key: nil,
                                                   reason: "'\(path)' holds a backslash, which manifests refuse (a reader on Windows takes it for a folder separator): rename it"))
                    return false
                }
                if path.utf8.count + outputMargin > ManifestLimits.maxPathBytes {
                    problems.append(CatalogProblem(isError: true, file: files.first ?? path, key: nil,
                                                   reason: "the path is \(path.utf8.count) bytes; a manifest names at most \(ManifestLimits.maxPathBytes), and a build's outputs add up to \(outputMargin) to it"))
                    return false
                }
            }
            return true
        }
    }
}
