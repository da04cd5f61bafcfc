import Foundation
import Slicing
#if canImport(Glibc)
import Glibc
#endif

/// libFuzzer entry point for the asset catalog reader: the input, cut at its first two NUL
/// bytes, becomes the Contents.json of a catalog, of a group in it and of a set in the group
/// (the set's kind picked by the input's length), beside one real PNG the set may name. Whatever
/// they hold, the reader returns — no crash, hang or unbounded allocation — every problem names a
/// Contents.json of this catalog, and every source it returns is a file inside the catalog.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzCatalogReader(_ data: UnsafePointer<UInt8>?, _ size: Int) -> CInt {
    let bytes = data.map { Array(UnsafeBufferPointer(start: $0, count: size)) } ?? []
    let parts = bytes.split(separator: 0, maxSplits: 2, omittingEmptySubsequences: false).map(Array.init)
    let kinds = ["imageset", "appiconset", "dataset", "colorset", "symbolset", "iconset", "imagestack", "brandassets"]
    let kind = kinds[size % kinds.count]
    let root = CatalogScratch.root
    let set = "\(root)/A.xcassets/group/item.\(kind)"
    try? FileManager.default.removeItem(atPath: "\(root)/A.xcassets")
    try! FileManager.default.createDirectory(atPath: set, withIntermediateDirectories: true)
    let files = ["\(root)/A.xcassets/Contents.json", "\(root)/A.xcassets/group/Contents.json", "\(set)/Contents.json"]
    for (index, file) in files.enumerated() where index < parts.count {
        FileManager.default.createFile(atPath: file, contents: Data(parts[parts.count - 1 - index]))
    }
    FileManager.default.createFile(atPath: "\(set)/a.png", contents: CatalogScratch.png)
    let result = AssetCatalogReader().read(catalogPath: "\(root)/A.xcassets", relativeTo: root)
    for problem in result.problems where !problem.file.hasPrefix("A.xcassets") {
        fatalError("a problem names \(problem.file), outside the catalog")
    }
    for asset in result.assets {
        for entry in asset.entries where !entry.file.hasPrefix("A.xcassets/") || !FileManager.default.fileExists(atPath: "\(root)/\(entry.file)") {
            fatalError("asset \(asset.name) names \(entry.file), not a file in the catalog")
        }
    }
    return 0
}

enum CatalogScratch {
    static let root: String = {
        let base = ProcessInfo.processInfo.environment["TESSERA_FUZZ_SCRATCH"] ?? "/tmp"
        let path = "\(base)/tessera-catalog-fuzz-\(getpid())"
        try! FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
        return path
    }()

    /// A 1×1 RGBA PNG.
    static let png = Data([0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A, 0x00, 0x00, 0x00, 0x0D, 0x49, 0x48, 0x44, 0x52,
                           0x00, 0x00, 0x00, 0x01, 0x00, 0x00, 0x00, 0x01, 0x08, 0x06, 0x00, 0x00, 0x00, 0x1F, 0x15, 0xC4,
                           0x89, 0x00, 0x00, 0x00, 0x0D, 0x49, 0x44, 0x41, 0x54, 0x78, 0x9C, 0x63, 0xF8, 0xCF, 0xC0, 0xF0,
                           0x1F, 0x00, 0x05, 0x00, 0x01, 0xFF, 0x89, 0x99, 0x3D, 0x1D, 0x00, 0x00, 0x00, 0x00, 0x49, 0x45,
                           0x4E, 0x44, 0xAE, 0x42, 0x60, 0x82])
}
