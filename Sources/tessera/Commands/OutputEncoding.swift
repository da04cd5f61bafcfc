import Decoding
import Encoding
import Foundation
import ReadyBitmaps
import TesseraCore

/// Encodes an upright image in the format an output path's extension names: `.png`, `.jpg`,
/// `.webp`, or `.bitmap` (the ready-to-draw format). Shared by `convert` and `downscale`.
struct OutputEncoding {
    var png = PNGEncoder()
    var jpeg = JPEGEncoder()
    var webp = WebPEncoder()
    var layout: ReadyPixelLayout = .bgra8

    /// `notes`: what the encoder could not honour (a PNG palette below its quality floor).
    func encode(_ image: DecodedImage, for output: String, stage: ProblemOrigin,
                notes: inout [String]) throws(TesseraError) -> [UInt8] {
        guard let encoder = try encoder(for: output, stage: stage) else {
            return try ReadyBitmapWriter(layout: layout).encode(image.bitmap, appliedOrientation: image.info.orientation)
        }
        return try encoder.encode(image.bitmap, iccProfile: image.info.iccProfile, notes: &notes)
    }

    /// The encoder the output's extension names; nil for a ready bitmap (`.bitmap`).
    func encoder(for output: String, stage: ProblemOrigin) throws(TesseraError) -> (any ImageEncoder)? {
        let ext = URL(fileURLWithPath: output).pathExtension.lowercased()
        if ext == "bitmap" { return nil }
        guard let format = ImageFormat(fileExtension: ext) else {
            throw TesseraError(.configuration, file: output, origin: stage,
                               reason: "'.\(ext)' is not an output format: use .png, .jpg, .webp or .bitmap")
        }
        return try ImageEncoders.encoder(for: format, png: png, jpeg: jpeg, webp: webp)
    }
}
