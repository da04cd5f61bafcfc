import Decoding
import Downscaling
import Encoding
import TesseraCore

/// One downscale pass whose sizes are wanted as files: each size given an encoder has its rows
/// streamed into that encoder's row encoder (`ImageRowEncoder`) as the pass makes them, so its
/// bitmap is never whole, and comes back as the very file the encoder makes of the bitmap.
///
/// A size is made whole and encoded after the pass instead when its encoder takes no rows (WebP,
/// a lossy PNG palette) or the file must be turned upright; and, by a second pass over the file,
/// when its rows did not fit what the row encoder assumed from the header (a translucent pixel in
/// a file without alpha, a gray JPEG's rows that are not all gray). Sizes without an encoder come
/// back as images.
public enum EncodedDownscale {
    /// One size's result: its file when it had an encoder, else its image.
    public enum Output: Sendable {
        case file(EncodedImage)
        case image(DecodedImage)
    }

    public struct Result: Sendable {
        public let info: ImageInfo
        /// What decoding the file warned about.
        public let warnings: [String]
        /// One per size, in order.
        public let outputs: [Output]
    }

    /// `encoders` has one entry per size `sizes` gives: the encoder of that size's file, or nil
    /// for an image. The other parameters are `StreamingDownscale.run`'s.
    public static func run(fileAt path: String, options: DecodeOptions = DecodeOptions(),
                           filter: ResamplingFilter = .lanczos3, linearLight: Bool = false,
                           memoryBudget: Int = StreamingDownscale.defaultMemoryBudget,
                           sizes: (ImageInfo) throws(TesseraError) -> [(width: Int, height: Int)],
                           encoders: [(any ImageEncoder)?]) throws(TesseraError) -> Result {
        var rowEncoders: [(any ImageRowEncoder)?] = encoders.map { _ in nil }
        let pass = try StreamingDownscale.run(fileAt: path, options: options, filter: filter, linearLight: linearLight,
                                              memoryBudget: memoryBudget, sizes: sizes) { info, alpha, sizes throws(TesseraError) in
            guard sizes.count == encoders.count else {
                throw TesseraError(.internalFailure, origin: .downscale, reason: "one encoder or none per output size")
            }
            for (index, size) in sizes.enumerated() {
                rowEncoders[index] = try encoders[index]?.rowEncoder(for: RowEncoding(
                    width: size.width, height: size.height, alpha: alpha, mayHaveAlpha: info.hasAlpha,
                    gray: info.isGray, iccProfile: info.iccProfile))
            }
            return rowEncoders.map { $0 }
        }
        let made = try sizes(pass.info)
        var outputs: [Output?] = []
        // Sizes whose rows did not fit their row encoder: made whole by a second pass.
        var again: [Int] = []
        for index in made.indices {
            if let rows = rowEncoders[index] {
                var notes: [String] = []
                if let bytes = try rows.finish(notes: &notes) {
                    outputs.append(.file(EncodedImage(bytes: bytes, width: made[index].width, height: made[index].height,
                                                      notes: notes)))
                } else {
                    outputs.append(nil)
                    again.append(index)
                }
                // Each row encoder's buffers go as soon as it is done: the next may need the room.
                rowEncoders[index] = nil
            } else if let image = pass.images[index] {
                outputs.append(try encoders[index].map { encoder throws(TesseraError) in
                    .file(try encoder.encodedImage(image.bitmap, iccProfile: image.info.iccProfile))
                } ?? .image(image))
            }
        }
        if !again.isEmpty {
            let whole = try StreamingDownscale.run(fileAt: path, options: options, filter: filter, linearLight: linearLight,
                                                   memoryBudget: memoryBudget, sizes: { _ in again.map { made[$0] } })
            for (index, image) in zip(again, whole.images) {
                guard let image, let encoder = encoders[index] else { continue }
                outputs[index] = .file(try encoder.encodedImage(image.bitmap, iccProfile: image.info.iccProfile))
            }
        }
        guard outputs.count == made.count, outputs.allSatisfy({ $0 != nil }) else {
            throw TesseraError(.internalFailure, file: path, origin: .downscale, reason: "a size was not made")
        }
        return Result(info: pass.info, warnings: pass.warnings, outputs: outputs.map { $0! })
    }
}
