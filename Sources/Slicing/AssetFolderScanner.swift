import Foundation
import TesseraCore

/// Finds every image under an input folder, in a stable order.
public struct AssetFolderScanner: Sendable {
    /// Scale of files whose names carry no `@Nx` suffix: 1x, as Xcode assumes.
    public var unsuffixedScale: DisplayScale

    public init(unsuffixedScale: DisplayScale = .x1) {
        self.unsuffixedScale = unsuffixedScale
    }

    /// Walks `root` recursively and returns its images sorted by asset, scale and path. Hidden files and folders (names starting with `.`) are skipped,
    /// as are files whose extension names no image format; symbolic links are not followed.
    public func scan(root: String) throws(TesseraError) -> [SourceImage] {
        var isFolder: ObjCBool = false
        guard FileManager.default.fileExists(atPath: root, isDirectory: &isFolder), isFolder.boolValue else {
            throw TesseraError(.io, file: root, reason: "the input folder does not exist or is not a folder")
        }
        guard let enumerator = FileManager.default.enumerator(atPath: root) else {
            throw TesseraError(.io, file: root, reason: "cannot list the input folder")
        }
        var images: [SourceImage] = []
        while let next = enumerator.nextObject() as? String {
            let components = next.split(separator: "/")
            if components.contains(where: { $0.hasPrefix(".") }) { continue }
            let url = URL(fileURLWithPath: next)
            guard let format = ImageFormat(fileExtension: url.pathExtension) else { continue }
            let full = "\(root)/\(next)"
            var status = stat()
            guard lstat(full, &status) == 0, (status.st_mode & S_IFMT) == S_IFREG else { continue }
            let stem = url.deletingPathExtension().lastPathComponent
            let folder = components.dropLast().joined(separator: "/")
            let parsed = FileNameTraits.parse(stem: stem, unsuffixedScale: unsuffixedScale)
            let name = folder.isEmpty ? parsed.name : "\(folder)/\(parsed.name)"
            images.append(SourceImage(relativePath: next, asset: AssetID(name), scale: parsed.scale,
                                      declaredFormat: format))
        }
        return images.sorted()
    }
}
