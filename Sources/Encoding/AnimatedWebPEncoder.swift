import CWebP
import TesseraCore

/// Animated WebP through libwebp's WebPAnimEncoder. Durations are whole milliseconds, as the
/// format stores them; the loop field is the number of plays (0 = forever). Consecutive
/// identical frames may be merged by the encoder into one longer frame: the timing is unchanged.
public final class AnimatedWebPEncoder: AnimatedImageEncoder {
    private let encoder: OpaquePointer
    private var config = WebPConfig()
    private var timestamp = 0
    private let width: Int
    private let height: Int

    public init(width: Int, height: Int, plays: AnimationPlays, quality: Int = 80,
                lossless: Bool = false) throws(TesseraError) {
        self.width = width
        self.height = height
        var options = WebPAnimEncoderOptions()
        guard WebPAnimEncoderOptionsInit(&options) != 0, WebPConfigInit(&config) != 0 else {
            throw Self.failure("libwebp version mismatch")
        }
        switch plays {
        case .forever: options.anim_params.loop_count = 0
        case .times(let count): options.anim_params.loop_count = Int32(min(65535, max(1, count)))
        }
        options.allow_mixed = 0
        config.quality = Float(quality)
        config.lossless = lossless ? 1 : 0
        config.thread_level = 0
        guard let encoder = WebPAnimEncoderNew(Int32(width), Int32(height), &options) else {
            throw Self.failure("cannot start an animation of \(width)×\(height)")
        }
        self.encoder = encoder
    }

    deinit { WebPAnimEncoderDelete(encoder) }

    public func add(_ frame: Bitmap, durationMs: Int) throws(TesseraError) {
        guard frame.width == width, frame.height == height else {
            throw Self.failure("frame is \(frame.width)×\(frame.height), the animation \(width)×\(height)")
        }
        let rgba = PixelPacking.straightRGBA(frame)
        var picture = WebPPicture()
        guard WebPPictureInit(&picture) != 0 else { throw Self.failure("libwebp version mismatch") }
        defer { WebPPictureFree(&picture) }
        picture.width = Int32(width)
        picture.height = Int32(height)
        picture.use_argb = 1
        let imported = rgba.withUnsafeBufferPointer { WebPPictureImportRGBA(&picture, $0.baseAddress, Int32(width * 4)) }
        guard imported != 0 else { throw Self.failure("out of memory") }
        guard WebPAnimEncoderAdd(encoder, &picture, Int32(timestamp), &config) != 0 else {
            throw Self.failure(String(cString: WebPAnimEncoderGetError(encoder)))
        }
        timestamp += max(0, durationMs)
    }

    public func finish() throws(TesseraError) -> [UInt8] {
        guard WebPAnimEncoderAdd(encoder, nil, Int32(timestamp), nil) != 0 else {
            throw Self.failure(String(cString: WebPAnimEncoderGetError(encoder)))
        }
        var data = WebPData()
        defer { WebPDataClear(&data) }
        guard WebPAnimEncoderAssemble(encoder, &data) != 0 else {
            throw Self.failure(String(cString: WebPAnimEncoderGetError(encoder)))
        }
        return Array(UnsafeBufferPointer(start: data.bytes, count: data.size))
    }

    private static func failure(_ text: String) -> TesseraError {
        TesseraError(.internalFailure, origin: .encode, reason: "animated WebP: \(text)")
    }
}
