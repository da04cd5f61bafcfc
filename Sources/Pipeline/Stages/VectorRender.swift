import Decoding
import Foundation
import Rasterizing
import TesseraCore

/// A PDF's or SVG's first page drawn at a factor, as an upright RGBA image: what the rasterize
/// stage makes of a vector set, and what `tessera convert` makes of a vector file, so the two
/// cannot draw differently (the same limits, the same refusals and warnings, the same pixels).
public enum VectorRender {
    /// Draws the file at `path` (`format` must be a vector format). `sRGB`: the set's entry is
    /// explicitly sRGB, so a Display P3 page is converted to it, as Xcode does. `origin` names
    /// who asked, in errors.
    public static func draw(fileAt path: String, format: ImageFormat, factor: Double, sRGB: Bool,
                            limits: VectorLimits, origin: ProblemOrigin) throws(TesseraError) -> DecodedImage {
        guard let vector = VectorFormat(rawValue: format.rawValue) else {
            throw TesseraError(.internalFailure, file: path, origin: origin, reason: "\(format.displayName) is not a vector format")
        }
        let size = (try? FileManager.default.attributesOfItem(atPath: path)[.size] as? Int) ?? 0
        // Refused unread: the limit bounds what the renderer may be asked to parse.
        guard size <= limits.maxInputBytes else {
            throw TesseraError(.limitExceeded, file: path, origin: origin,
                               reason: "\(vector.displayName) file is \(size) bytes, over the limit of \(limits.maxInputBytes) (stages.rasterize.max-file-size)")
        }
        guard let data = FileManager.default.contents(atPath: path) else {
            throw TesseraError(.io, file: path, origin: origin, reason: "cannot read the file")
        }
        let document = try VectorDocument(bytes: [UInt8](data), format: vector, limits: limits, path: path,
                                          embeddedImages: HeaderDimensions())
        var bitmap = try document.render(scale: .factor(factor))
        var colorSpace = document.colorSpace, profile = document.iccProfile
        if sRGB, colorSpace == .displayP3 {
            DisplayP3Conversion.toSRGB(&bitmap)
            (colorSpace, profile) = (.sRGB, nil)
        }
        let info = ImageInfo(format: format, width: bitmap.width, height: bitmap.height, bitDepth: 8,
                             colorModel: "rgba", hasAlpha: true, needsWholeImage: true, frameCount: 1,
                             colorSpace: colorSpace, iccProfile: profile)
        return DecodedImage(bitmap: bitmap, info: info, orientationApplied: true, warnings: document.warnings)
    }
}
